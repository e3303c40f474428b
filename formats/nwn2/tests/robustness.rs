//! Hostile input: truncations, byte flips, forged sizes. Every case must end in a clear
//! error (or a successful read), never a panic, and never allocate past the stated limits.
#![allow(clippy::unwrap_used, clippy::expect_used)]
mod common;

use walkmesh_core::format::Dumper;
use walkmesh_core::{Diagnostics, Input, Position, ReadOptions};
use walkmesh_nwn2::TrxFormat;
use walkmesh_nwn2::container;

struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn try_everything(bytes: &[u8]) -> Result<(), walkmesh_core::ReadError> {
    let options = ReadOptions::default();
    let _ = walkmesh_nwn2::validate::validate_bytes(bytes, &options);
    let _ = TrxFormat.dump(Input { bytes, path: None }, &options);
    let mut diag = Diagnostics::new();
    walkmesh_nwn2::read_trx(Input { bytes, path: None }, &options, &mut diag).map(|_| ())
}

/// A small file with its ASWM stored uncompressed, so that truncations and flips hit the
/// walkmesh parser itself rather than the zlib checksum.
fn raw_file(name: &str) -> (Vec<u8>, Vec<u8>) {
    let files = common::corpus_files();
    let path = files.iter().find(|p| common::name(p) == name).unwrap();
    let bytes = std::fs::read(path).unwrap();
    let file = walkmesh_nwn2::file::parse(&bytes, 1 << 30).unwrap();
    let trwh = file.container.packets[0].payload.to_vec();
    (trwh, file.body.to_vec())
}

fn with_raw_body(trwh: &[u8], body: &[u8]) -> Vec<u8> {
    container::write(2, 3, &[(*b"TRWH", trwh), (*b"ASWM", body)])
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn truncated_files_give_errors_naming_a_field() {
    let path = common::corpus_file("dm001_cargohold.trx");
    let bytes = std::fs::read(path).unwrap();
    for cut in (0..bytes.len())
        .step_by(37)
        .chain([1, 11, 12, 19, 20, bytes.len() - 1])
    {
        let error = try_everything(&bytes[..cut]).expect_err("a truncated file must not read");
        assert!(!error.field.is_empty(), "cut at {cut}: {error}");
    }
    // Truncations of the walkmesh body itself (stored unwrapped).
    let (trwh, body) = raw_file("dm001_cargohold.trx");
    assert!(try_everything(&with_raw_body(&trwh, &body)).is_ok());
    for cut in (0..body.len())
        .step_by(13)
        .chain([0, 4, 52, 53, body.len() - 1])
    {
        let error = try_everything(&with_raw_body(&trwh, &body[..cut]))
            .expect_err("a truncated walkmesh must not read");
        assert!(
            matches!(error.position, Position::Offset(_)),
            "cut at {cut}: {error}"
        );
        assert!(error.field.starts_with("aswm."), "cut at {cut}: {error}");
    }
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn random_byte_flips_never_panic() {
    let (trwh, body) = raw_file("abandoned house.trx");
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let clean = with_raw_body(&trwh, &body);
    let (mut ok, mut failed) = (0, 0);
    for _ in 0..400 {
        let mut bytes = clean.clone();
        for _ in 0..1 + rng.next() % 4 {
            let at = (rng.next() % bytes.len() as u64) as usize;
            bytes[at] ^= 1 << (rng.next() % 8);
        }
        match try_everything(&bytes) {
            Ok(()) => ok += 1,
            Err(_) => failed += 1,
        }
    }
    println!("byte flips: {ok} read, {failed} rejected");
    // Flips in the compressed file: the zlib checksum or the parser rejects them.
    let path = common::corpus_file("abandoned house.trx");
    let original = std::fs::read(path).unwrap();
    for _ in 0..200 {
        let mut bytes = original.clone();
        let at = (rng.next() % bytes.len() as u64) as usize;
        bytes[at] ^= 1 << (rng.next() % 8);
        let _ = try_everything(&bytes);
    }
}

fn comp_file(compressed: u32, uncompressed: u32, stream: &[u8]) -> Vec<u8> {
    let mut payload = b"COMP".to_vec();
    payload.extend_from_slice(&compressed.to_le_bytes());
    payload.extend_from_slice(&uncompressed.to_le_bytes());
    payload.extend_from_slice(stream);
    let trwh = [1u8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0];
    container::write(2, 3, &[(*b"TRWH", &trwh), (*b"ASWM", &payload)])
}

#[test]
fn forged_comp_headers_are_refused_before_allocating() {
    // 4 GiB claimed once inflated: refused by the ceiling, before inflating.
    let stream = [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01];
    let error = try_everything(&comp_file(stream.len() as u32, u32::MAX, &stream)).unwrap_err();
    assert_eq!(error.field, "ASWM.comp.uncompressed_size");
    assert!(error.message.contains("limit"), "{error}");
    // 4 GiB claimed as the compressed size: more than the packet holds.
    let error = try_everything(&comp_file(u32::MAX, 100, &stream)).unwrap_err();
    assert_eq!(error.field, "ASWM.comp.stream");
    assert!(error.message.contains("remain"), "{error}");
    // A stream inflating to more than the stated size (a small zlib bomb) stops at the size.
    let big = vec![0u8; 1 << 20];
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    std::io::Write::write_all(&mut encoder, &big).unwrap();
    let bomb = encoder.finish().unwrap();
    let error = try_everything(&comp_file(bomb.len() as u32, 1000, &bomb)).unwrap_err();
    assert_eq!(error.field, "ASWM.comp.uncompressed_size");
    // A custom ceiling applies.
    let options = ReadOptions {
        max_decompressed: 500,
        ..ReadOptions::default()
    };
    let error = walkmesh_nwn2::file::parse(
        &comp_file(bomb.len() as u32, 1000, &bomb),
        options.max_decompressed,
    )
    .unwrap_err();
    assert!(error.message.contains("limit of 500"), "{error}");
}

#[test]
fn forged_counts_are_checked_against_the_remaining_bytes() {
    // A body claiming 2^32-1 vertices in a few bytes.
    let mut body = vec![0u8; 53];
    body[0..4].copy_from_slice(&0x6cu32.to_le_bytes());
    body[36] = 1;
    body[37..41].copy_from_slice(&u32::MAX.to_le_bytes());
    let trwh = [1u8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0];
    let error = try_everything(&with_raw_body(&trwh, &body)).unwrap_err();
    assert_eq!(error.field, "aswm.vertices");
    // 12-byte header, two directory entries, the 20-byte TRWH packet, the ASWM packet header.
    assert_eq!(error.position, Position::Offset(12 + 16 + 20 + 8 + 53));
    // A huge tile grid.
    let mut body = vec![0u8; 53 + 16];
    body[0..4].copy_from_slice(&0x6cu32.to_le_bytes());
    body[36] = 1;
    body[61..65].copy_from_slice(&u32::MAX.to_le_bytes());
    body[65..69].copy_from_slice(&u32::MAX.to_le_bytes());
    let error = try_everything(&with_raw_body(&trwh, &body)).unwrap_err();
    assert_eq!(error.field, "aswm.grid_width");
    // A packet directory pointing past the end, and a count larger than the file.
    let mut file = with_raw_body(&trwh, &body);
    file[24..28].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(
        try_everything(&file).unwrap_err().field,
        "directory[1].offset"
    );
    let mut file = with_raw_body(&trwh, &body);
    file[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(try_everything(&file).unwrap_err().field, "directory");
}
