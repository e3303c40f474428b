//! `walkmesh dump` of the corpus's largest TRX: the flat dump streamed into a sink, against the
//! tree that `--format ron|json` serialises (the baseline, measured in the same run).
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use walkmesh_core::flatdump::FlatWriter;
use walkmesh_core::format::Dumper;
use walkmesh_core::{Input, ReadOptions};
use walkmesh_nwn2::TrxFormat;

fn largest_trx() -> Option<Vec<u8>> {
    let dir = walkmesh_core::testing::corpora_dir(Path::new(env!("CARGO_MANIFEST_DIR")))?;
    let files = walkmesh_core::testing::files_with_extensions(&dir.join("nwn2"), &["trx"]);
    let largest = files
        .iter()
        .max_by_key(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0))?;
    std::fs::read(largest).ok()
}

fn bench(c: &mut Criterion) {
    let Some(bytes) = largest_trx() else {
        eprintln!("NOTICE: shared NWN2 corpus not found; nothing to benchmark");
        return;
    };
    let input = Input {
        bytes: &bytes,
        path: None,
    };
    let options = ReadOptions::default();
    c.bench_function("nwn2 flat dump of the largest trx", |b| {
        b.iter(|| {
            let mut flat = FlatWriter::new(std::io::sink());
            TrxFormat.dump_fields(input, &options, &mut flat).unwrap();
            flat.finish().unwrap();
        })
    });
    c.bench_function("nwn2 tree dump of the largest trx (baseline)", |b| {
        b.iter(|| TrxFormat.dump(input, &options).unwrap())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
