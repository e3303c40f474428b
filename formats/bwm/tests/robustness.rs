//! Truncated and byte-flipped corpus files: errors that name an offset, never a panic.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::needless_range_loop
)]

use std::path::Path;

use walkmesh_bwm::{dump_bwm, read_bwm, validate_bwm, write_bwm};
use walkmesh_core::{Diagnostics, Input, Position, ReadOptions, WriteOptions};

struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn corpus_files() -> Vec<std::path::PathBuf> {
    let dir = walkmesh_core::testing::required_corpora_dir(Path::new(env!("CARGO_MANIFEST_DIR")));
    let files = walkmesh_core::testing::files_with_extensions(
        &dir.join("kotor"),
        &["wok", "pwk", "dwk", "bwm"],
    );
    assert!(!files.is_empty(), "no BWM files below {}", dir.display());
    files
}

/// Reads, validates and (when asked) dumps and rebuilds; returns whether reading succeeded.
fn exercise(bytes: &[u8], deep: bool) -> bool {
    let input = Input {
        bytes,
        path: Some(Path::new("x.wok")),
    };
    let mut diag = Diagnostics::new();
    let read = read_bwm(input, &ReadOptions::default(), &mut diag);
    if let Err(error) = &read {
        assert!(
            matches!(error.position, Position::Offset(_)),
            "error without offset: {error}"
        );
        assert!(!error.field.is_empty(), "error without field: {error}");
    }
    match validate_bwm(input, &ReadOptions::default()) {
        Ok(findings) => {
            for finding in findings
                .iter()
                .filter(|d| d.code == "bwm.table_out_of_bounds")
            {
                assert!(matches!(finding.location.position, Position::Offset(_)));
            }
        }
        Err(error) => assert!(matches!(error.position, Position::Offset(_)), "{error}"),
    }
    if deep {
        let _ = dump_bwm(bytes);
        if let Ok(mesh) = &read {
            let options = WriteOptions {
                rebuild: true,
                ..WriteOptions::default()
            };
            write_bwm(mesh, &options, &mut diag).unwrap();
        }
    }
    read.is_ok()
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn truncation_at_200_offsets_per_file_gives_errors_with_offsets() {
    let files = corpus_files();
    let mut cases = 0;
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15 ^ bytes.len() as u64);
        // The first 100 cuts cover the header and table starts densely, the rest at random.
        let cuts: Vec<usize> = (0..100)
            .map(|i| i * 2)
            .chain((0..100).map(|_| rng.below(bytes.len())))
            .collect();
        for cut in cuts {
            let ok = exercise(&bytes[..cut], cases % 20 == 0);
            // Every table is needed to cover the file: any cut before the end fails.
            assert!(!ok, "{} cut at {cut} was accepted", path.display());
            cases += 1;
        }
    }
    eprintln!("{} files, {cases} truncations", files.len());
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn two_thousand_byte_flips_per_file_never_panic() {
    let files = corpus_files();
    let (mut flips, mut read_ok) = (0usize, 0usize);
    for path in &files {
        let original = std::fs::read(path).unwrap();
        let mut rng = XorShift(0xD1B5_4A32_D192_ED03 ^ original.len() as u64);
        // 400 mutants with 5 flipped bytes each: 2,000 flips per file. Flips land in the
        // header a quarter of the time, where counts and offsets live.
        for mutant in 0..400 {
            let mut bytes = original.clone();
            for _ in 0..5 {
                let at = if rng.below(4) == 0 {
                    rng.below(0x88)
                } else {
                    rng.below(bytes.len())
                };
                bytes[at] ^= (rng.below(255) + 1) as u8;
                flips += 1;
            }
            if exercise(&bytes, mutant % 25 == 0) {
                read_ok += 1;
            }
        }
    }
    eprintln!(
        "{} files, {flips} byte flips, {read_ok} mutants still readable",
        files.len()
    );
}

#[test]
fn huge_counts_are_rejected_before_allocating() {
    // A header that claims 2^32−1 entries of every table in a 136-byte file.
    let mut bytes = b"BWM V1.0".to_vec();
    bytes.extend_from_slice(&1u32.to_le_bytes());
    bytes.resize(0x88, 0);
    for at in (0x48..0x88).step_by(8) {
        bytes[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        bytes[at + 4..at + 8].copy_from_slice(&0x88u32.to_le_bytes());
    }
    let mut diag = Diagnostics::new();
    let error = read_bwm(
        Input {
            bytes: &bytes,
            path: None,
        },
        &ReadOptions::default(),
        &mut diag,
    )
    .unwrap_err();
    assert_eq!(error.field, "header.vertex_count");
    assert_eq!(error.position, Position::Offset(0x48));
    let findings = validate_bwm(
        Input {
            bytes: &bytes,
            path: None,
        },
        &ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(findings.len(), 1);
    assert_eq!(findings[0].code, "bwm.table_out_of_bounds");
    assert!(dump_bwm(&bytes).is_err());
}

/// A table cut short, or starting past the end, is refused at the header field that is wrong,
/// with the table named (the spans go through core's `ByteCursor::table_room`).
#[test]
fn tables_past_the_end_name_their_header_field() {
    let header = |vertex_count: u32, face_offset: u32| {
        let mut bytes = b"BWM V1.0".to_vec();
        bytes.resize(0x88, 0);
        bytes[0x48..0x4C].copy_from_slice(&vertex_count.to_le_bytes());
        bytes[0x4C..0x50].copy_from_slice(&0x88u32.to_le_bytes());
        bytes[0x50..0x54].copy_from_slice(&1u32.to_le_bytes());
        bytes[0x54..0x58].copy_from_slice(&face_offset.to_le_bytes());
        // One vertex's 12 bytes, then one face's.
        bytes.extend([0u8; 24]);
        bytes
    };
    let read = |bytes: &[u8]| {
        read_bwm(
            Input { bytes, path: None },
            &ReadOptions::default(),
            &mut Diagnostics::new(),
        )
        .unwrap_err()
    };
    // Three vertices where the file has room for two.
    let error = read(&header(3, 0x88 + 12));
    assert_eq!(error.field, "header.vertex_count");
    assert_eq!(error.position, Position::Offset(0x48));
    assert!(
        error.message.contains(
            "3 vertices entries of 12 bytes from byte 136 need 36 bytes, but only 24 remain"
        ),
        "{error}"
    );
    // The face table placed past the end of the 160-byte file.
    let error = read(&header(1, 0x1000));
    assert_eq!(error.field, "header.face_offset");
    assert_eq!(error.position, Position::Offset(0x54));
    assert!(
        error
            .message
            .contains("the faces table starts at byte 4096, past the end of the 160-byte file"),
        "{error}"
    );
}
