//! Little-endian reads at checked offsets, through core's [`ByteCursor`]. Every read names its
//! field; a failure reports the offset in the file (a blob offset plus the 12-byte wrapper for
//! the `.mdl`) as an [`MdlError`] of kind `Truncated`, worded for the model's two files.

use walkmesh_core::cursor::ByteCursor;

use crate::error::{MdlError, MdlErrorKind};

/// A byte slice whose offsets are reported as `base + offset` (12 for the model blob, whose
/// stored offsets count from byte 12 of the `.mdl`; 0 for the `.mdx`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bytes<'a> {
    pub data: &'a [u8],
    pub base: u64,
    /// True for the `.mdx`: errors are marked as counted in it.
    pub mdx: bool,
}

/// An "array definition": offset, count and the count repeated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ArrayDef {
    pub offset: u32,
    pub count: u32,
}

impl<'a> Bytes<'a> {
    /// The file offset of `offset`.
    pub fn file_offset(&self, offset: usize) -> u64 {
        self.base + offset as u64
    }

    fn error(&self, kind: MdlErrorKind, offset: usize, field: &str, message: String) -> MdlError {
        let error = MdlError::at(kind, self.file_offset(offset), field, message);
        if self.mdx { error.in_mdx() } else { error }
    }

    /// A cursor at `offset` of this slice, reporting file offsets.
    fn cursor(&self, offset: usize) -> ByteCursor<'a> {
        ByteCursor::little(self.data)
            .with_base(self.base)
            .at(offset)
    }

    /// The `Truncated` error for `len` bytes at `offset`.
    fn truncated(&self, offset: usize, len: usize, field: &str) -> MdlError {
        self.error(
            MdlErrorKind::Truncated,
            offset,
            field,
            format!(
                "{len} byte(s) are needed here, but the {} has {} byte(s) after the offset",
                if self.mdx { ".mdx" } else { "model data" },
                self.data.len().saturating_sub(offset)
            ),
        )
    }

    /// `len` bytes at `offset`, or a `Truncated` error naming `field`.
    pub fn slice(&self, offset: usize, len: usize, field: &str) -> Result<&'a [u8], MdlError> {
        self.cursor(offset)
            .take(len, field)
            .map_err(|_| self.truncated(offset, len, field))
    }

    fn array<const N: usize>(&self, offset: usize, field: &str) -> Result<[u8; N], MdlError> {
        self.cursor(offset)
            .bytes::<N>(field)
            .map_err(|_| self.truncated(offset, N, field))
    }

    pub fn u8(&self, offset: usize, field: &str) -> Result<u8, MdlError> {
        self.array::<1>(offset, field).map(|[b]| b)
    }

    pub fn u16(&self, offset: usize, field: &str) -> Result<u16, MdlError> {
        Ok(u16::from_le_bytes(self.array(offset, field)?))
    }

    pub fn u32(&self, offset: usize, field: &str) -> Result<u32, MdlError> {
        Ok(u32::from_le_bytes(self.array(offset, field)?))
    }

    pub fn i32(&self, offset: usize, field: &str) -> Result<i32, MdlError> {
        Ok(i32::from_le_bytes(self.array(offset, field)?))
    }

    pub fn f32(&self, offset: usize, field: &str) -> Result<f32, MdlError> {
        Ok(f32::from_le_bytes(self.array(offset, field)?))
    }

    /// `N` floats at `offset`, each finite, else a `NonFinite` error at the bad component.
    pub fn finite_floats<const N: usize>(
        &self,
        offset: usize,
        field: &str,
        components: [&str; N],
    ) -> Result<[f32; N], MdlError> {
        let mut out = [0f32; N];
        for (k, (slot, component)) in out.iter_mut().zip(components).enumerate() {
            let at = offset + 4 * k;
            let value = self.f32(at, field)?;
            if !value.is_finite() {
                return Err(self.error(
                    MdlErrorKind::NonFinite,
                    at,
                    &format!("{field}.{component}"),
                    format!("{value} is not a finite number"),
                ));
            }
            *slot = value;
        }
        Ok(out)
    }

    /// An array definition at `offset`; the two counts must agree.
    pub fn array_def(&self, offset: usize, field: &str) -> Result<ArrayDef, MdlError> {
        let array_offset = self.u32(offset, &format!("{field}.offset"))?;
        let count = self.u32(offset + 4, &format!("{field}.count"))?;
        let again = self.u32(offset + 8, &format!("{field}.count2"))?;
        if count != again {
            return Err(self.error(
                MdlErrorKind::Inconsistent,
                offset + 8,
                &format!("{field}.count2"),
                format!("the array's two counts differ ({count} and {again})"),
            ));
        }
        Ok(ArrayDef {
            offset: array_offset,
            count,
        })
    }

    /// Checks that `count` records of `size` bytes fit at `offset`, before anything is
    /// allocated for them; returns the start as a `usize`. Errors point at `stored_at`, where
    /// the offset and count are stored (an offset of this slice).
    pub fn check_records(
        &self,
        offset: u32,
        count: u32,
        size: usize,
        field: &str,
        stored_at: usize,
    ) -> Result<usize, MdlError> {
        let start = offset as usize;
        if self
            .cursor(stored_at)
            .table_room(u64::from(offset), u64::from(count), size as u64)
            .is_ok()
        {
            return Ok(start);
        }
        Err(self.error(
            MdlErrorKind::Truncated,
            stored_at,
            field,
            format!(
                "{count} record(s) of {size} bytes at offset {start:#x} (file byte {:#x}) run past the end of the {} ({} bytes)",
                self.file_offset(start),
                if self.mdx { ".mdx" } else { "model data" },
                self.data.len()
            ),
        ))
    }

    /// A NUL-padded or NUL-terminated name of at most `max` bytes (non-UTF-8 bytes replaced).
    pub fn name(&self, offset: usize, max: usize, field: &str) -> Result<String, MdlError> {
        let available = self.data.len().saturating_sub(offset).min(max);
        if available == 0 && max > 0 {
            return Err(self.error(
                MdlErrorKind::OutOfRange,
                offset,
                field,
                "the name starts past the end of the model data".to_string(),
            ));
        }
        let bytes = self.slice(offset, available, field)?;
        let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
        Ok(String::from_utf8_lossy(bytes.get(..end).unwrap_or_default()).into_owned())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::error::Part;

    #[test]
    fn reads_past_the_end_are_truncated_errors_at_the_file_offset() {
        let blob = Bytes {
            data: &[1, 0, 0, 0, 2, 0],
            base: 12,
            mdx: false,
        };
        assert_eq!(blob.u32(0, "a").unwrap(), 1);
        assert_eq!(blob.u16(4, "b").unwrap(), 2);
        let error = blob.u32(4, "node.count").unwrap_err();
        assert_eq!(error.kind, MdlErrorKind::Truncated);
        assert_eq!(error.offset, Some(16));
        assert_eq!(error.field, "node.count");
        assert_eq!(error.part, Part::Mdl);
        assert!(
            error
                .message
                .contains("4 byte(s) are needed here, but the model data has 2 byte(s)"),
            "{error}"
        );
        // Far past the end, and in the .mdx.
        let mdx = Bytes { mdx: true, ..blob };
        let error = mdx.slice(usize::MAX, 8, "rows").unwrap_err();
        assert_eq!(error.part, Part::Mdx);
        assert!(error.message.contains("the .mdx has 0 byte(s)"), "{error}");
    }

    #[test]
    fn record_counts_are_checked_before_allocating() {
        let blob = Bytes {
            data: &[0; 64],
            base: 12,
            mdx: false,
        };
        assert_eq!(blob.check_records(16, 3, 16, "mesh.faces", 8).unwrap(), 16);
        let error = blob
            .check_records(16, u32::MAX, 32, "mesh.faces", 8)
            .unwrap_err();
        assert_eq!(error.kind, MdlErrorKind::Truncated);
        assert_eq!(error.offset, Some(20));
        assert_eq!(error.field, "mesh.faces");
        assert!(
            error.message.contains("4294967295 record(s) of 32 bytes"),
            "{error}"
        );
        assert!(blob.check_records(65, 0, 4, "past", 0).is_err());
    }
}
