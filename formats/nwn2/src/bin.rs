//! Little-endian reading and writing. Reads go through core's bounds-checked cursor
//! ([`walkmesh_core::cursor::ByteCursor`]): every read names its field and byte offset when the
//! bytes run out, and array reads check `count × size` against what remains *before* anything
//! is allocated. The fixed-offset helpers below read inside records already taken whole.

pub(crate) use walkmesh_core::cursor::ByteCursor as Cursor;

/// A little-endian cursor over `data` (core's [`Cursor`]): errors report offsets from `base`
/// (a packet's place in the file) and field names after `prefix` (`aswm.` inside the inflated
/// walkmesh body).
pub(crate) fn cursor<'a>(data: &'a [u8], base: u64, prefix: &'static str) -> Cursor<'a> {
    Cursor::little(data).with_base(base).with_prefix(prefix)
}

/// `u16` at `at` (0 when out of range; callers pass fixed-size records).
pub(crate) fn le_u16(bytes: &[u8], at: usize) -> u16 {
    bytes
        .get(at..at + 2)
        .and_then(|b| <[u8; 2]>::try_from(b).ok())
        .map_or(0, u16::from_le_bytes)
}

/// `u32` at `at` (0 when out of range).
pub(crate) fn le_u32(bytes: &[u8], at: usize) -> u32 {
    bytes
        .get(at..at + 4)
        .and_then(|b| <[u8; 4]>::try_from(b).ok())
        .map_or(0, u32::from_le_bytes)
}

/// `f32` at `at` (0 when out of range).
pub(crate) fn le_f32(bytes: &[u8], at: usize) -> f32 {
    f32::from_bits(le_u32(bytes, at))
}

/// Four bytes at `at`.
pub(crate) fn bytes4(bytes: &[u8], at: usize) -> [u8; 4] {
    bytes
        .get(at..at + 4)
        .and_then(|b| <[u8; 4]>::try_from(b).ok())
        .unwrap_or([0; 4])
}

/// 32 bytes at `at`.
pub(crate) fn bytes32(bytes: &[u8], at: usize) -> [u8; 32] {
    bytes
        .get(at..at + 32)
        .and_then(|b| <[u8; 32]>::try_from(b).ok())
        .unwrap_or([0; 32])
}

/// Little-endian output buffer.
#[derive(Debug, Default)]
pub(crate) struct Out {
    pub(crate) bytes: Vec<u8>,
}

impl Out {
    pub(crate) fn with_capacity(n: usize) -> Out {
        Out {
            bytes: Vec::with_capacity(n),
        }
    }
    pub(crate) fn u8(&mut self, v: u8) {
        self.bytes.push(v);
    }
    pub(crate) fn u16(&mut self, v: u16) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn u32(&mut self, v: u32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn f32(&mut self, v: f32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn raw(&mut self, v: &[u8]) {
        self.bytes.extend_from_slice(v);
    }
}
