//! A whole TRN/TRX file: container, TRWH and the parsed ASWM.

use std::sync::Arc;

use walkmesh_core::ReadError;

use crate::aswm::{self, Aswm, Layout, Wrapper};
use crate::container::{self, Container, Trwh};

/// A parsed terrain file.
#[derive(Debug)]
pub struct TrxFile<'a> {
    pub container: Container<'a>,
    /// Index of the TRWH packet and its contents.
    pub trwh: Option<(usize, Trwh)>,
    /// Index of the ASWM packet.
    pub aswm_index: usize,
    pub aswm: Aswm,
    pub layout: Layout,
    pub wrapper: Wrapper,
    /// The inflated body as read (shared with the provenance of a read mesh).
    pub body: Arc<[u8]>,
    /// The original zlib stream.
    pub stream: Option<&'a [u8]>,
}

/// Parses the container, TRWH and ASWM (the ASWM must be there exactly once).
pub fn parse(bytes: &[u8], max_decompressed: u64) -> Result<TrxFile<'_>, ReadError> {
    parse_keeping(bytes, max_decompressed, true, None)
}

/// [`parse`] for the reader: the ASWM's path tables, island lists and island paths are checked
/// but left empty ([`aswm::parse_skeleton`]); the same inputs are accepted and refused.
pub fn parse_skeleton(bytes: &[u8], max_decompressed: u64) -> Result<TrxFile<'_>, ReadError> {
    parse_keeping(bytes, max_decompressed, false, None)
}

/// [`parse`] of a file read before, with `body`, what its ASWM packet inflated to then (the
/// provenance's `aswm.body`): the packet is not inflated again.
pub fn parse_inflated(bytes: &[u8], body: Arc<[u8]>) -> Result<TrxFile<'_>, ReadError> {
    parse_keeping(bytes, body.len() as u64, true, Some(body))
}

fn parse_keeping(
    bytes: &[u8],
    max_decompressed: u64,
    keep: bool,
    inflated: Option<Arc<[u8]>>,
) -> Result<TrxFile<'_>, ReadError> {
    let container = container::parse(bytes)?;
    let mut trwh = None;
    let mut aswm_index = None;
    for (i, packet) in container.packets.iter().enumerate() {
        match &packet.fourcc {
            b"TRWH" => {
                if trwh.is_some() {
                    return Err(ReadError::at_offset(
                        u64::from(packet.offset),
                        format!("packets[{i}]"),
                        "a second TRWH packet; a terrain file has one",
                    ));
                }
                trwh = Some((i, Trwh::parse(packet.payload, packet.payload_offset)?));
            }
            b"ASWM" => {
                if aswm_index.is_some() {
                    return Err(ReadError::at_offset(
                        u64::from(packet.offset),
                        format!("packets[{i}]"),
                        "a second ASWM packet; a terrain file has one walkmesh",
                    ));
                }
                aswm_index = Some(i);
            }
            _ => {}
        }
    }
    let Some(aswm_index) = aswm_index else {
        return Err(ReadError::whole(
            "ASWM",
            "the file has no ASWM packet, so it holds no walkmesh",
        ));
    };
    let packet = container
        .packets
        .get(aswm_index)
        .ok_or_else(|| ReadError::whole("ASWM", "packet index out of range"))?;
    let (body, wrapper, stream) = aswm::unwrap_reusing(
        packet.payload,
        packet.payload_offset,
        max_decompressed,
        inflated,
    )?;
    let parsed = if keep {
        aswm::parse(&body)
    } else {
        aswm::parse_skeleton(&body)
    };
    let (aswm, layout) = parsed.map_err(|mut e| {
        if wrapper != Wrapper::Raw {
            e.message = format!("{} (offset inside the inflated walkmesh)", e.message);
        } else if let walkmesh_core::Position::Offset(o) = e.position {
            e.position = walkmesh_core::Position::Offset(o + packet.payload_offset);
        }
        e
    })?;
    Ok(TrxFile {
        container,
        trwh,
        aswm_index,
        aswm,
        layout,
        wrapper,
        body,
        stream,
    })
}
