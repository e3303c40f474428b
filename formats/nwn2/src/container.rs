//! The NWN2 terrain container shared by `.trn` and `.trx`: a 12-byte header, a packet
//! directory (fourcc + absolute offset) and packets (fourcc + size + payload).

use walkmesh_core::ReadError;

use crate::bin::{Out, le_u32};

/// One packet as found in the file.
#[derive(Clone, Debug, PartialEq)]
pub struct Packet<'a> {
    pub fourcc: [u8; 4],
    /// Absolute offset of the packet (its fourcc), from the directory.
    pub offset: u32,
    /// Absolute offset of the payload.
    pub payload_offset: u64,
    pub payload: &'a [u8],
}

impl Packet<'_> {
    pub fn kind(&self) -> String {
        fourcc_text(self.fourcc)
    }
}

/// The container.
#[derive(Clone, Debug, PartialEq)]
pub struct Container<'a> {
    pub major: u16,
    pub minor: u16,
    pub packets: Vec<Packet<'a>>,
}

/// Printable fourcc.
pub fn fourcc_text(fourcc: [u8; 4]) -> String {
    fourcc
        .iter()
        .map(|&b| {
            if b.is_ascii_graphic() || b == b' ' {
                char::from(b)
            } else {
                '?'
            }
        })
        .collect()
}

/// Parses the container. Packets may appear in any order and at any offset; each must lie
/// inside the file and repeat its directory fourcc.
pub fn parse(bytes: &[u8]) -> Result<Container<'_>, ReadError> {
    let mut c = crate::bin::cursor(bytes, 0, "");
    let magic = c.fourcc("header.magic")?;
    if &magic != b"NWN2" {
        return Err(ReadError::at_offset(
            0,
            "header.magic",
            format!(
                "the file starts with '{}', not 'NWN2'; it is not an NWN2 terrain file",
                fourcc_text(magic)
            ),
        ));
    }
    let major = c.u16("header.version_major")?;
    let minor = c.u16("header.version_minor")?;
    let count = c.u32("header.packet_count")?;
    let directory = c.array(u64::from(count), 8, "directory")?;
    let mut packets = Vec::with_capacity(count as usize);
    for (i, entry) in directory.chunks_exact(8).enumerate() {
        let fourcc = crate::bin::bytes4(entry, 0);
        let offset = le_u32(entry, 4);
        let entry_offset = 12 + 8 * i as u64;
        let field = |name: &str| format!("directory[{i}].{name}");
        let start = offset as usize;
        let Some(head) = bytes.get(start..).filter(|rest| rest.len() >= 8) else {
            return Err(ReadError::at_offset(
                entry_offset + 4,
                field("offset"),
                format!(
                    "packet {i} ('{}') is said to start at byte {offset}, but the file has only {} bytes",
                    fourcc_text(fourcc),
                    bytes.len()
                ),
            ));
        };
        let mut p = crate::bin::cursor(head, u64::from(offset), "");
        let own = p.fourcc(format!("packets[{i}].fourcc"))?;
        if own != fourcc {
            return Err(ReadError::at_offset(
                u64::from(offset),
                format!("packets[{i}].fourcc"),
                format!(
                    "the packet is '{}' but the directory calls it '{}'",
                    fourcc_text(own),
                    fourcc_text(fourcc)
                ),
            ));
        }
        let size = p.u32(format!("packets[{i}].size"))?;
        let payload = p.array(u64::from(size), 1, format!("packets[{i}].payload"))?;
        packets.push(Packet {
            fourcc,
            offset,
            payload_offset: u64::from(offset) + 8,
            payload,
        });
    }
    Ok(Container {
        major,
        minor,
        packets,
    })
}

/// Writes a container with the packets laid out contiguously after the directory, in list
/// order (what the toolset and nwn-lib-d do).
pub fn write(major: u16, minor: u16, packets: &[([u8; 4], &[u8])]) -> Vec<u8> {
    let total: usize = packets.iter().map(|(_, p)| 16 + p.len()).sum();
    let mut o = Out::with_capacity(12 + total);
    o.raw(b"NWN2");
    o.u16(major);
    o.u16(minor);
    o.u32(packets.len() as u32);
    let mut offset = 12 + 8 * packets.len();
    for (fourcc, payload) in packets {
        o.raw(fourcc);
        o.u32(offset as u32);
        offset += 8 + payload.len();
    }
    for (fourcc, payload) in packets {
        o.raw(fourcc);
        o.u32(payload.len() as u32);
        o.raw(payload);
    }
    o.bytes
}

/// The TRWH packet: area size and an id of unknown use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Trwh {
    pub width: u32,
    pub height: u32,
    pub id: u32,
}

impl Trwh {
    pub fn parse(payload: &[u8], base: u64) -> Result<Trwh, ReadError> {
        let mut c = crate::bin::cursor(payload, base, "TRWH.");
        let trwh = Trwh {
            width: c.u32("width")?,
            height: c.u32("height")?,
            id: c.u32("id")?,
        };
        if c.remaining() != 0 {
            return Err(c.error(
                "end",
                format!(
                    "the TRWH packet has {} bytes more than its 12",
                    c.remaining()
                ),
            ));
        }
        Ok(trwh)
    }

    pub fn bytes(&self) -> Vec<u8> {
        let mut o = Out::with_capacity(12);
        o.u32(self.width);
        o.u32(self.height);
        o.u32(self.id);
        o.bytes
    }
}
