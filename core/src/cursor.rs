//! One bounds-checked byte cursor for every binary reader.
//!
//! Game files are hostile input: a count can claim more records than the file holds, an offset
//! can point past its end. [`ByteCursor`] reads little- or big-endian values in sequence (or
//! from a position it is moved to), and every read that would pass the end of the data is a
//! [`ReadError`] naming the field and the byte offset instead of a panic. Counts are checked
//! against the bytes left *before* anything is allocated for them ([`ByteCursor::array`],
//! [`ByteCursor::check_room`], [`ByteCursor::count`]), so a forged count costs nothing.
//!
//! Offsets in errors are the cursor's position plus a `base` ([`ByteCursor::with_base`]), so a
//! packet or a decompressed body read on its own still reports where it is (file offsets, or
//! offsets inside the body); field names get a `prefix` ([`ByteCursor::with_prefix`]).
//! Field names are anything [`FieldName`]: a `&str`, a `String`, or a closure that builds the
//! name only when an error needs it (`|| format!("regions[{i}].height")`), so that the
//! success path formats nothing.

use std::ops::Range;

use crate::{ErrorKind, ReadError};

/// Byte order of the values a cursor reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endian {
    Little,
    Big,
}

/// The name of the field being read, for error messages; built only when an error is.
pub trait FieldName {
    fn field_name(&self) -> String;
}

impl FieldName for &str {
    fn field_name(&self) -> String {
        (*self).to_string()
    }
}

impl FieldName for String {
    fn field_name(&self) -> String {
        self.clone()
    }
}

impl FieldName for &String {
    fn field_name(&self) -> String {
        (*self).clone()
    }
}

impl<F: Fn() -> String> FieldName for F {
    fn field_name(&self) -> String {
        self()
    }
}

/// Why a table that an offset points to does not lie inside the data
/// ([`ByteCursor::table_room`]); readers that word the refusal their own way match on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoRoom {
    /// The table starts past the end of the data.
    StartPastEnd,
    /// The table starts inside the data, but its `needed` bytes (`None`: more than 2^64) are
    /// more than the `left` bytes from its start to the end.
    TooLong { needed: Option<u64>, left: u64 },
}

/// A read position in a byte buffer (see the module comment).
#[derive(Clone, Debug)]
pub struct ByteCursor<'a> {
    data: &'a [u8],
    pos: usize,
    base: u64,
    endian: Endian,
    prefix: &'static str,
}

impl<'a> ByteCursor<'a> {
    /// A cursor at the start of `data`, reading values in `endian` order.
    pub fn new(data: &'a [u8], endian: Endian) -> ByteCursor<'a> {
        ByteCursor {
            data,
            pos: 0,
            base: 0,
            endian,
            prefix: "",
        }
    }

    /// A little-endian cursor at the start of `data`.
    pub fn little(data: &'a [u8]) -> ByteCursor<'a> {
        ByteCursor::new(data, Endian::Little)
    }

    /// A big-endian cursor at the start of `data`.
    pub fn big(data: &'a [u8]) -> ByteCursor<'a> {
        ByteCursor::new(data, Endian::Big)
    }

    /// Reports offsets as `base + position` (the data's own place in a larger file).
    pub fn with_base(mut self, base: u64) -> ByteCursor<'a> {
        self.base = base;
        self
    }

    /// Puts `prefix` before every field name in errors (`aswm.` inside a packet).
    pub fn with_prefix(mut self, prefix: &'static str) -> ByteCursor<'a> {
        self.prefix = prefix;
        self
    }

    /// The whole buffer.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// Position relative to the buffer's start.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Bytes left after the position.
    pub fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }

    /// Offset of the position as errors report it (`base + position`).
    pub fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// An error at the current offset.
    pub fn error(&self, field: impl FieldName, message: impl Into<String>) -> ReadError {
        self.error_at(self.pos, &field, message)
    }

    /// An error at buffer position `pos` (reported as `base + pos`).
    fn error_at(&self, pos: usize, field: &dyn FieldName, message: impl Into<String>) -> ReadError {
        ReadError::at_offset(
            self.base + pos as u64,
            format!("{}{}", self.prefix, field.field_name()),
            message,
        )
    }

    /// Moves to buffer position `pos`, which may be the end but not past it.
    pub fn seek(&mut self, pos: usize, field: impl FieldName) -> Result<(), ReadError> {
        if pos > self.data.len() {
            return Err(self
                .error(
                    field,
                    format!(
                        "position {} is past the end of the data ({} bytes)",
                        self.base + pos as u64,
                        self.base + self.data.len() as u64
                    ),
                )
                .with_kind(ErrorKind::Truncated));
        }
        self.pos = pos;
        Ok(())
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize, field: impl FieldName) -> Result<&'a [u8], ReadError> {
        self.take_named(n, &field)
    }

    fn take_named(&mut self, n: usize, field: &dyn FieldName) -> Result<&'a [u8], ReadError> {
        let start = self.pos;
        match start
            .checked_add(n)
            .and_then(|end| self.data.get(start..end))
        {
            Some(bytes) => {
                self.pos = start + n;
                Ok(bytes)
            }
            None => Err(self
                .error_at(
                    start,
                    field,
                    format!(
                        "the data ends here: {n} bytes are needed, but only {} remain",
                        self.remaining()
                    ),
                )
                .with_kind(ErrorKind::Truncated)),
        }
    }

    /// Steps over `n` bytes.
    pub fn skip(&mut self, n: usize, field: impl FieldName) -> Result<(), ReadError> {
        self.take_named(n, &field).map(|_| ())
    }

    /// The next `N` bytes as an array.
    pub fn bytes<const N: usize>(&mut self, field: impl FieldName) -> Result<[u8; N], ReadError> {
        self.array_of::<N>(&field)
    }

    fn array_of<const N: usize>(&mut self, field: &dyn FieldName) -> Result<[u8; N], ReadError> {
        let start = self.pos;
        match self
            .data
            .get(start..start.saturating_add(N))
            .and_then(|slice| <[u8; N]>::try_from(slice).ok())
        {
            Some(bytes) => {
                self.pos = start + N;
                Ok(bytes)
            }
            None => Err(self
                .error_at(
                    start,
                    field,
                    format!(
                        "the data ends here: {N} bytes are needed, but only {} remain",
                        self.remaining()
                    ),
                )
                .with_kind(ErrorKind::Truncated)),
        }
    }

    /// Refuses `count` records of `size` bytes unless they fit in the bytes left: call it
    /// before allocating for them. The error is at the current offset.
    pub fn check_room(
        &self,
        count: u64,
        size: u64,
        field: impl FieldName,
    ) -> Result<(), ReadError> {
        self.check_room_at(self.pos, count, size, &field)
    }

    /// [`ByteCursor::check_room`] with the error at buffer position `pos`.
    fn check_room_at(
        &self,
        pos: usize,
        count: u64,
        size: u64,
        field: &dyn FieldName,
    ) -> Result<(), ReadError> {
        let left = self.remaining() as u64;
        match count.checked_mul(size) {
            Some(needed) if needed <= left => Ok(()),
            needed => Err(self
                .error_at(
                    pos,
                    field,
                    format!(
                        "count {count} needs {} bytes, but only {left} remain",
                        needed.map_or_else(|| "more than 2^64".to_string(), |n| n.to_string())
                    ),
                )
                .with_kind(ErrorKind::Truncated)),
        }
    }

    /// Checks that `count` records of `size` bytes from buffer position `start` (a table
    /// that an offset points to) lie inside the data, before anything is allocated for them,
    /// and returns their byte range. The cursor does not move.
    pub fn table_room(&self, start: u64, count: u64, size: u64) -> Result<Range<usize>, NoRoom> {
        let len = self.data.len() as u64;
        if start > len {
            return Err(NoRoom::StartPastEnd);
        }
        let left = len - start;
        match count.checked_mul(size) {
            // Both fit in the data's length, so in usize too.
            Some(needed) if needed <= left => Ok(start as usize..(start + needed) as usize),
            needed => Err(NoRoom::TooLong { needed, left }),
        }
    }

    /// [`ByteCursor::table_room`] for interleaved records: `count` elements of `element`
    /// bytes, `stride` bytes apart, from buffer position `start` (the last element needs only
    /// its own `element` bytes, as glTF's accessors count). Returns the byte range from the
    /// first element's start to the last one's end.
    pub fn strided_room(
        &self,
        start: u64,
        count: u64,
        stride: u64,
        element: u64,
    ) -> Result<Range<usize>, NoRoom> {
        if count == 0 {
            return self.table_room(start, 0, element);
        }
        let span = (count - 1)
            .checked_mul(stride)
            .and_then(|n| n.checked_add(element));
        match span {
            Some(span) => self.table_room(start, 1, span),
            None => {
                let len = self.data.len() as u64;
                if start > len {
                    Err(NoRoom::StartPastEnd)
                } else {
                    Err(NoRoom::TooLong {
                        needed: None,
                        left: len - start,
                    })
                }
            }
        }
    }

    /// [`ByteCursor::table_room`] as a cursor over the table (its offsets still reported as
    /// the data's, its byte order and prefix this cursor's), or an error at the current
    /// position (where the table's offset or count is stored) naming `field`.
    pub fn table(
        &self,
        start: u64,
        count: u64,
        size: u64,
        field: impl FieldName,
    ) -> Result<ByteCursor<'a>, ReadError> {
        match self.table_room(start, count, size) {
            Ok(range) => Ok(ByteCursor {
                data: self.data.get(range.clone()).unwrap_or_default(),
                pos: 0,
                base: self.base + range.start as u64,
                endian: self.endian,
                prefix: self.prefix,
            }),
            Err(NoRoom::StartPastEnd) => Err(self.error(
                field,
                format!(
                    "the table starts at byte {}, past the end of the data ({} bytes)",
                    self.base + start,
                    self.base + self.data.len() as u64
                ),
            ).with_kind(crate::ErrorKind::Truncated)),
            Err(NoRoom::TooLong { needed, left }) => Err(self.error(
                field,
                format!(
                    "{count} records of {size} bytes from byte {} need {} bytes, but only {left} remain",
                    self.base + start,
                    needed.map_or_else(|| "more than 2^64".to_string(), |n| n.to_string())
                ),
            ).with_kind(crate::ErrorKind::Truncated)),
        }
    }

    /// A copy of this cursor moved to buffer position `pos`, for a field read out of
    /// sequence. `pos` may lie past the end: a read there is then an error at `pos`.
    pub fn at(&self, pos: usize) -> ByteCursor<'a> {
        ByteCursor {
            pos,
            ..self.clone()
        }
    }

    /// `count` records of `size` bytes, checked against the bytes left first.
    pub fn array(
        &mut self,
        count: u64,
        size: usize,
        field: impl FieldName,
    ) -> Result<&'a [u8], ReadError> {
        self.check_room_at(self.pos, count, size as u64, &field)?;
        // Fits in the data (checked just above), so in usize too.
        self.take_named((count as usize) * size, &field)
    }

    /// A u32 count of records of `size` bytes, refused (at the count's offset) unless that
    /// many records fit in the bytes after it.
    pub fn count(&mut self, size: u64, field: impl FieldName) -> Result<usize, ReadError> {
        let at = self.pos;
        let count = self.u32_named(&field)?;
        self.check_room_at(at, u64::from(count), size, &field)?;
        Ok(count as usize)
    }

    /// Everything after the position; the cursor ends at the end.
    pub fn rest(&mut self) -> &'a [u8] {
        let start = self.pos.min(self.data.len());
        self.pos = self.data.len();
        self.data.get(start..).unwrap_or(&[])
    }

    pub fn u8(&mut self, field: impl FieldName) -> Result<u8, ReadError> {
        self.array_of::<1>(&field).map(|[b]| b)
    }

    pub fn u16(&mut self, field: impl FieldName) -> Result<u16, ReadError> {
        let bytes = self.array_of::<2>(&field)?;
        Ok(match self.endian {
            Endian::Little => u16::from_le_bytes(bytes),
            Endian::Big => u16::from_be_bytes(bytes),
        })
    }

    pub fn u32(&mut self, field: impl FieldName) -> Result<u32, ReadError> {
        self.u32_named(&field)
    }

    fn u32_named(&mut self, field: &dyn FieldName) -> Result<u32, ReadError> {
        let bytes = self.array_of::<4>(field)?;
        Ok(match self.endian {
            Endian::Little => u32::from_le_bytes(bytes),
            Endian::Big => u32::from_be_bytes(bytes),
        })
    }

    pub fn i32(&mut self, field: impl FieldName) -> Result<i32, ReadError> {
        self.u32_named(&field).map(|v| v as i32)
    }

    pub fn f32(&mut self, field: impl FieldName) -> Result<f32, ReadError> {
        self.u32_named(&field).map(f32::from_bits)
    }

    /// Three f32 (a position or a normal).
    pub fn vec3(&mut self, field: impl FieldName) -> Result<[f32; 3], ReadError> {
        let mut v = [0.0; 3];
        for slot in &mut v {
            *slot = f32::from_bits(self.u32_named(&field)?);
        }
        Ok(v)
    }

    /// Four bytes as they are (a magic or a packet's fourcc).
    pub fn fourcc(&mut self, field: impl FieldName) -> Result<[u8; 4], ReadError> {
        self.array_of::<4>(&field)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::Position;

    #[test]
    fn reads_both_byte_orders() {
        let data = [0x01, 0x02, 0x03, 0x04, 0x3F, 0x80, 0x00, 0x00];
        let mut le = ByteCursor::little(&data);
        assert_eq!(le.u16("a").unwrap(), 0x0201);
        assert_eq!(le.u16("b").unwrap(), 0x0403);
        assert_eq!(le.u32("c").unwrap(), 0x0000_803F);
        let mut be = ByteCursor::big(&data);
        assert_eq!(be.u32("a").unwrap(), 0x0102_0304);
        assert_eq!(be.f32("b").unwrap(), 1.0);
        assert_eq!(be.remaining(), 0);
        let mut i = ByteCursor::little(&[0xFF, 0xFF, 0xFF, 0xFF]);
        assert_eq!(i.i32("i").unwrap(), -1);
    }

    #[test]
    fn a_short_read_names_the_field_and_the_offset() {
        let mut c = ByteCursor::little(&[0; 6])
            .with_base(100)
            .with_prefix("aswm.");
        c.u32("header.version").unwrap();
        let error = c.u32("header.count").unwrap_err();
        assert_eq!(error.position, Position::Offset(104));
        assert_eq!(error.field, "aswm.header.count");
        assert!(error.message.contains("4 bytes are needed"), "{error}");
        assert!(error.message.contains("2 remain"), "{error}");
        // The failed read moved nothing.
        assert_eq!(c.pos(), 4);
        let error = c.vec3(|| format!("vertices[{}]", 7)).unwrap_err();
        assert_eq!(error.field, "aswm.vertices[7]");
    }

    #[test]
    fn counts_are_checked_before_anything_is_allocated() {
        // A count of 0xFFFFFFFF records of 16 bytes, with 4 bytes after it.
        let mut data = vec![0xFF; 4];
        data.extend([0; 4]);
        let mut c = ByteCursor::little(&data);
        let error = c.count(16, "edges.count").unwrap_err();
        assert_eq!(error.position, Position::Offset(0));
        assert!(
            error
                .message
                .contains("count 4294967295 needs 68719476720 bytes"),
            "{error}"
        );
        assert!(error.message.contains("only 4 remain"), "{error}");
        let mut c = ByteCursor::little(&data);
        let error = c.array(u64::MAX, 2, "table").unwrap_err();
        assert!(error.message.contains("more than 2^64"), "{error}");
        let mut c = ByteCursor::little(&data);
        assert_eq!(c.array(2, 4, "table").unwrap().len(), 8);
        assert_eq!(c.remaining(), 0);
    }

    #[test]
    fn tables_are_checked_before_anything_is_allocated() {
        let data = [0u8; 24];
        let c = ByteCursor::little(&data).with_base(12);
        assert_eq!(c.table_room(8, 4, 4), Ok(8..24));
        assert_eq!(c.table_room(24, 0, 4), Ok(24..24));
        assert_eq!(c.table_room(25, 0, 4), Err(NoRoom::StartPastEnd));
        assert_eq!(
            c.table_room(8, 5, 4),
            Err(NoRoom::TooLong {
                needed: Some(20),
                left: 16
            })
        );
        assert_eq!(
            c.table_room(0, u64::MAX, 2),
            Err(NoRoom::TooLong {
                needed: None,
                left: 24
            })
        );
        // The table as a cursor: offsets stay the file's.
        let mut table = c.table(8, 2, 8, "keys").unwrap();
        assert_eq!(table.remaining(), 16);
        assert_eq!(table.offset(), 20);
        table.skip(16, "keys").unwrap();
        let error = table.u8("keys[2]").unwrap_err();
        assert_eq!(error.position, Position::Offset(36));
        // Refusals are at the cursor's position (where the count is stored), by field.
        let c = c.at(4);
        let error = c.table(8, 0xFFFF_FFFF, 32, "header.count").unwrap_err();
        assert_eq!(error.position, Position::Offset(16));
        assert_eq!(error.field, "header.count");
        assert!(
            error
                .message
                .contains("4294967295 records of 32 bytes from byte 20 need 137438953440 bytes"),
            "{error}"
        );
        assert!(error.message.contains("only 16 remain"), "{error}");
        let error = c.table(100, 1, 1, "header.offset").unwrap_err();
        assert!(error.message.contains("starts at byte 112"), "{error}");
        // Interleaved elements: the last needs only its own bytes.
        assert_eq!(c.strided_room(4, 3, 8, 4), Ok(4..24));
        assert_eq!(
            c.strided_room(4, 3, 8, 5),
            Err(NoRoom::TooLong {
                needed: Some(21),
                left: 20
            })
        );
        assert_eq!(c.strided_room(24, 0, 8, 4), Ok(24..24));
        assert_eq!(c.strided_room(25, 0, 8, 4), Err(NoRoom::StartPastEnd));
        assert_eq!(
            c.strided_room(0, u64::MAX, u64::MAX, 1),
            Err(NoRoom::TooLong {
                needed: None,
                left: 24
            })
        );
        let error = c.at(30).u32("past").unwrap_err();
        assert_eq!(error.position, Position::Offset(42));
        assert!(error.message.contains("only 0 remain"), "{error}");
    }

    #[test]
    fn seek_skip_and_rest() {
        let data = [1, 2, 3, 4, 5];
        let mut c = ByteCursor::little(&data);
        c.seek(3, "x").unwrap();
        assert_eq!(c.u8("y").unwrap(), 4);
        assert!(c.seek(6, "past").is_err());
        c.seek(1, "back").unwrap();
        c.skip(1, "gap").unwrap();
        assert!(c.skip(9, "too far").is_err());
        assert_eq!(c.rest(), &[3, 4, 5]);
        assert_eq!(c.remaining(), 0);
        assert_eq!(c.fourcc("magic").unwrap_err().field, "magic");
    }
}
