//! Reading a written page's data back: the inverse of the packing [`crate::page`] does
//! (JSON, gzipped, base64 inside `<script data-encoding="gzip+base64">`), as `viewer.js`
//! undoes it in the browser. For tools and tests that check what a page shows without a
//! browser; the page itself never needs it.

use std::io::Read;

use serde_json::Value;

/// The attribute that marks the packed data's script element.
const MARKER: &str = "data-encoding=\"gzip+base64\">";

/// Why a page's data could not be read back.
#[derive(Debug, thiserror::Error)]
pub enum UnpackError {
    #[error("the page holds no packed data (no script with {MARKER:?})")]
    NoData,
    #[error("the packed data is not base64 (byte {0} of it)")]
    Base64(usize),
    #[error("the packed data does not inflate: {0}")]
    Inflate(#[from] std::io::Error),
    #[error("the packed data is not JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// The JSON document a page written by [`crate::page`] carries.
pub fn page_data(page: &str) -> Result<Value, UnpackError> {
    let start = page.find(MARKER).ok_or(UnpackError::NoData)? + MARKER.len();
    let rest = page.get(start..).ok_or(UnpackError::NoData)?;
    let end = rest.find("</script>").ok_or(UnpackError::NoData)?;
    let packed = decode_base64(rest.get(..end).ok_or(UnpackError::NoData)?)?;
    let mut json = Vec::new();
    flate2::read::GzDecoder::new(packed.as_slice()).read_to_end(&mut json)?;
    Ok(serde_json::from_slice(&json)?)
}

/// Standard base64 with padding (RFC 4648), the inverse of [`crate::base64`]; whitespace is
/// not allowed (the page writes none).
pub fn decode_base64(text: &str) -> Result<Vec<u8>, UnpackError> {
    let digit = |at: usize, c: u8| match c {
        b'A'..=b'Z' => Ok(u32::from(c - b'A')),
        b'a'..=b'z' => Ok(u32::from(c - b'a') + 26),
        b'0'..=b'9' => Ok(u32::from(c - b'0') + 52),
        b'+' => Ok(62),
        b'/' => Ok(63),
        _ => Err(UnpackError::Base64(at)),
    };
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return Err(UnpackError::Base64(bytes.len()));
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    for (index, chunk) in bytes.chunks(4).enumerate() {
        let at = index * 4;
        let padding = chunk.iter().rev().take_while(|&&c| c == b'=').count();
        let last = at + 4 == bytes.len();
        if padding > 2 || (padding > 0 && !last) {
            return Err(UnpackError::Base64(at));
        }
        let mut n = 0u32;
        for (k, &c) in chunk.iter().enumerate() {
            let value = if k >= 4 - padding {
                0
            } else {
                digit(at + k, c)?
            };
            n = (n << 6) | value;
        }
        let decoded = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(decoded.get(..3 - padding).unwrap_or(&[]));
    }
    Ok(out)
}

impl walkmesh_core::Kinded for UnpackError {
    fn kind(&self) -> walkmesh_core::ErrorKind {
        use walkmesh_core::ErrorKind;
        match self {
            UnpackError::NoData => ErrorKind::Unsupported,
            UnpackError::Base64(_) => ErrorKind::Invalid,
            UnpackError::Inflate(_) => ErrorKind::Invalid,
            UnpackError::Json(error) => error.kind(),
        }
    }
}
