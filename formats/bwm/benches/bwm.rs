//! read + rebuild + write of the largest corpus files and of a generated 1,000,000-face mesh.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use walkmesh_bwm::{read_bwm, synthetic, write_bwm};
use walkmesh_core::{Diagnostics, Input, ReadOptions, WriteOptions};

fn round_trip(bytes: &[u8]) -> usize {
    let mut diag = Diagnostics::new();
    let mesh = read_bwm(
        Input { bytes, path: None },
        &ReadOptions::default(),
        &mut diag,
    )
    .unwrap();
    let options = WriteOptions {
        rebuild: true,
        ..WriteOptions::default()
    };
    write_bwm(&mesh, &options, &mut diag).unwrap().main.len()
}

fn bench(c: &mut Criterion) {
    let corpora = walkmesh_core::testing::corpora_dir(Path::new(env!("CARGO_MANIFEST_DIR")));
    if let Some(dir) = corpora {
        // The largest corpus file (PyKotor output) and the largest genuine one (the file the
        // PyKotor timing in .ci/peers/bwm_check.py uses).
        for rel in ["pykotor-misc/out.wok", "k1cp/tslpatchdata/m50aa_01a.wok"] {
            let path = dir.join("kotor").join(rel);
            if let Ok(bytes) = std::fs::read(&path) {
                c.bench_function(&format!("read+rebuild+write {rel}"), |b| {
                    b.iter(|| round_trip(black_box(&bytes)))
                });
            }
        }
    } else {
        eprintln!("notice: shared/corpora not found; corpus benchmarks skipped");
    }
    let mesh = synthetic::grid(500, 1000);
    let mut diag = Diagnostics::new();
    let bytes = write_bwm(&mesh, &WriteOptions::default(), &mut diag)
        .unwrap()
        .main;
    let mut group = c.benchmark_group("1M faces");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.bench_function("read+rebuild+write", |b| {
        b.iter(|| round_trip(black_box(&bytes)))
    });
    group.bench_function("rebuild+write from IR", |b| {
        b.iter(|| {
            let mut diag = Diagnostics::new();
            write_bwm(black_box(&mesh), &WriteOptions::default(), &mut diag)
                .unwrap()
                .main
                .len()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
