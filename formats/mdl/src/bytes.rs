//! Little-endian reads at checked offsets. Every read names its field; a failure reports the
//! offset in the file (a blob offset plus the 12-byte wrapper for the `.mdl`).

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

    /// `len` bytes at `offset`, or a `Truncated` error naming `field`.
    pub fn slice(&self, offset: usize, len: usize, field: &str) -> Result<&'a [u8], MdlError> {
        offset
            .checked_add(len)
            .and_then(|end| self.data.get(offset..end))
            .ok_or_else(|| {
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
            })
    }

    fn array<const N: usize>(&self, offset: usize, field: &str) -> Result<[u8; N], MdlError> {
        let bytes = self.slice(offset, N, field)?;
        let mut out = [0u8; N];
        out.copy_from_slice(bytes);
        Ok(out)
    }

    pub fn u8(&self, offset: usize, field: &str) -> Result<u8, MdlError> {
        Ok(self.array::<1>(offset, field)?[0])
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
        let needed = (count as usize).checked_mul(size);
        let fits = needed
            .and_then(|n| start.checked_add(n))
            .is_some_and(|end| end <= self.data.len());
        if fits {
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
