//! Standard base64 (RFC 4648, `+/`, `=` padding) for `data:` URIs and byte extras.
//!
//! Hand-written because the `gltf` crate only decodes base64 behind its `import` feature, which
//! also pulls in image decoding we do not want.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Encodes `bytes` with padding.
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b0 = chunk.first().copied().unwrap_or(0);
        let b1 = chunk.get(1).copied().unwrap_or(0);
        let b2 = chunk.get(2).copied().unwrap_or(0);
        let triple = (u32::from(b0) << 16) | (u32::from(b1) << 8) | u32::from(b2);
        let symbols = [
            (triple >> 18) & 63,
            (triple >> 12) & 63,
            (triple >> 6) & 63,
            triple & 63,
        ];
        let keep = chunk.len() + 1;
        for (position, symbol) in symbols.iter().enumerate() {
            if position < keep {
                out.push(char::from(ALPHABET[*symbol as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn value_of(symbol: u8) -> Option<u32> {
    match symbol {
        b'A'..=b'Z' => Some(u32::from(symbol - b'A')),
        b'a'..=b'z' => Some(u32::from(symbol - b'a') + 26),
        b'0'..=b'9' => Some(u32::from(symbol - b'0') + 52),
        b'+' | b'-' => Some(62),
        b'/' | b'_' => Some(63),
        _ => None,
    }
}

/// Decodes base64 text (padding optional, URL-safe symbols accepted, ASCII whitespace
/// skipped). On failure returns the position of the first bad character.
pub fn decode(text: &str) -> Result<Vec<u8>, usize> {
    // The output is never longer than 3/4 of the input, so this allocation is bounded by the
    // input that was already read.
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 3);
    let mut accumulator = 0u32;
    let mut bits = 0u32;
    let mut padding_seen = false;
    for (position, &symbol) in text.as_bytes().iter().enumerate() {
        if symbol.is_ascii_whitespace() {
            continue;
        }
        if symbol == b'=' {
            padding_seen = true;
            continue;
        }
        if padding_seen {
            return Err(position);
        }
        let value = value_of(symbol).ok_or(position)?;
        accumulator = (accumulator << 6) | value;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(((accumulator >> bits) & 0xFF) as u8);
        }
        accumulator &= (1 << bits) - 1;
    }
    if bits >= 6 {
        // A single dangling symbol carries fewer than 8 bits: not valid base64.
        return Err(text.len());
    }
    Ok(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn rfc4648_vectors() {
        let cases = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in cases {
            assert_eq!(encode(plain.as_bytes()), encoded);
            assert_eq!(decode(encoded).unwrap(), plain.as_bytes());
        }
        assert_eq!(decode("Zm9vYg").unwrap(), b"foob");
    }

    #[test]
    fn all_byte_values_round_trip_and_bad_symbols_are_reported() {
        let bytes: Vec<u8> = (0..=255u8).collect();
        assert_eq!(decode(&encode(&bytes)).unwrap(), bytes);
        assert_eq!(decode("Zm9*"), Err(3));
        assert_eq!(decode("Zg==Zg"), Err(4));
        assert!(decode("Z").is_err());
    }
}
