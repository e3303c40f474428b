//! Re-bake of the corpus's `dm_dungeon.trx` (26 k triangles, 24 × 24 tiles): edges, tiles,
//! path tables, islands and island paths, plus serialisation and zlib. Also the plain read,
//! and the whole job of `walkmesh convert dm_dungeon.trx out.trx --rebuild` (read, re-bake
//! and write of the file bytes), the figure to compare with other tools' bakers.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use walkmesh_core::{Diagnostics, Input, ReadOptions, WriteOptions};

fn corpus_file() -> Option<Vec<u8>> {
    let dir = walkmesh_core::testing::corpora_dir(Path::new(env!("CARGO_MANIFEST_DIR")))?;
    let files = walkmesh_core::testing::files_with_extensions(&dir.join("nwn2"), &["trx"]);
    let chosen = files
        .iter()
        .find(|p| p.file_name().is_some_and(|n| n == "dm_dungeon.trx"))
        .or_else(|| {
            files
                .iter()
                .max_by_key(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0))
        })?;
    std::fs::read(chosen).ok()
}

fn bench(c: &mut Criterion) {
    let Some(bytes) = corpus_file() else {
        eprintln!("NOTICE: shared NWN2 corpus not found; nothing to benchmark");
        return;
    };
    let mut diag = Diagnostics::new();
    let mesh = walkmesh_nwn2::read_trx(
        Input {
            bytes: &bytes,
            path: None,
        },
        &ReadOptions::default(),
        &mut diag,
    )
    .unwrap();
    let options = WriteOptions {
        rebuild: true,
        file_name: Some("dm_dungeon.trx".into()),
        ..WriteOptions::default()
    };
    c.bench_function("nwn2 rebake dm_dungeon.trx", |b| {
        b.iter(|| {
            let mut diag = Diagnostics::new();
            walkmesh_nwn2::write_trx(&mesh, &options, &mut diag).unwrap()
        })
    });
    // The same with zlib level 1 (`nwn2:zlib_level`): compression is half of the default.
    let mut fast = options.clone();
    fast.params.insert("nwn2:zlib_level".into(), "1".into());
    c.bench_function("nwn2 rebake dm_dungeon.trx zlib level 1", |b| {
        b.iter(|| {
            let mut diag = Diagnostics::new();
            walkmesh_nwn2::write_trx(&mesh, &fast, &mut diag).unwrap()
        })
    });
    c.bench_function("nwn2 read + rebake + write dm_dungeon.trx", |b| {
        b.iter(|| {
            let mut diag = Diagnostics::new();
            let mesh = walkmesh_nwn2::read_trx(
                Input {
                    bytes: &bytes,
                    path: None,
                },
                &ReadOptions::default(),
                &mut diag,
            )
            .unwrap();
            walkmesh_nwn2::write_trx(&mesh, &options, &mut diag).unwrap()
        })
    });
    c.bench_function("nwn2 read dm_dungeon.trx", |b| {
        b.iter(|| {
            let mut diag = Diagnostics::new();
            walkmesh_nwn2::read_trx(
                Input {
                    bytes: &bytes,
                    path: None,
                },
                &ReadOptions::default(),
                &mut diag,
            )
            .unwrap()
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
