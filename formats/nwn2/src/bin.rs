//! Bounds-checked little-endian reading. Every read names its field and byte offset when the
//! bytes run out, and array reads check `count × size` against what remains *before* anything
//! is allocated.

use walkmesh_core::ReadError;

/// A read position in a byte buffer. `base` is added to positions in error messages, so that
/// a packet payload reports file offsets.
#[derive(Debug, Clone)]
pub(crate) struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    base: u64,
    /// Prefix of field names (`aswm.` inside the inflated walkmesh body).
    prefix: &'static str,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(data: &'a [u8], base: u64, prefix: &'static str) -> Cursor<'a> {
        Cursor {
            data,
            pos: 0,
            base,
            prefix,
        }
    }

    /// Position relative to the buffer start.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// Bytes left.
    pub(crate) fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }

    /// Absolute offset of the current position (for errors and dumps).
    pub(crate) fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    pub(crate) fn error(&self, field: &str, message: impl Into<String>) -> ReadError {
        ReadError::at_offset(self.offset(), format!("{}{field}", self.prefix), message)
    }

    /// The next `n` bytes.
    pub(crate) fn take(&mut self, n: usize, field: &str) -> Result<&'a [u8], ReadError> {
        let left = self.remaining();
        if n > left {
            return Err(self.error(
                field,
                format!("{n} bytes are needed here but only {left} remain"),
            ));
        }
        let start = self.pos;
        self.pos += n;
        self.data
            .get(start..start + n)
            .ok_or_else(|| self.error(field, "the data ends early"))
    }

    /// `count` records of `size` bytes, checked against the remaining length first.
    pub(crate) fn array(
        &mut self,
        count: u64,
        size: usize,
        field: &str,
    ) -> Result<&'a [u8], ReadError> {
        let left = self.remaining();
        let needed = count.checked_mul(size as u64);
        match needed {
            Some(n) if n <= left as u64 => self.take(n as usize, field),
            _ => Err(self.error(
                field,
                format!(
                    "count {count} needs {} bytes but only {left} remain",
                    needed.map_or_else(|| "more than 2^64".to_string(), |n| n.to_string())
                ),
            )),
        }
    }

    pub(crate) fn u8(&mut self, field: &str) -> Result<u8, ReadError> {
        Ok(self.take(1, field)?.first().copied().unwrap_or(0))
    }

    pub(crate) fn u16(&mut self, field: &str) -> Result<u16, ReadError> {
        Ok(le_u16(self.take(2, field)?, 0))
    }

    pub(crate) fn u32(&mut self, field: &str) -> Result<u32, ReadError> {
        Ok(le_u32(self.take(4, field)?, 0))
    }

    pub(crate) fn f32(&mut self, field: &str) -> Result<f32, ReadError> {
        Ok(le_f32(self.take(4, field)?, 0))
    }

    pub(crate) fn fourcc(&mut self, field: &str) -> Result<[u8; 4], ReadError> {
        Ok(bytes4(self.take(4, field)?, 0))
    }
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
