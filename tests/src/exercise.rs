//! One hostile input through everything a format offers: its validator, its dumper, its
//! reader, the format-neutral checks, and read → write → read into every writable format.
//! Shared by the cargo-fuzz targets (`fuzz/`, which include this file by path) and by the
//! ordinary regression tests of fuzz findings (`tests/tests/fuzz_regressions.rs`), so that a
//! crash found by fuzzing stays fixed on stable Rust.
//!
//! It panics only on a real bug: a panic inside the library, or a file one of our writers
//! produced that our own reader then refuses.

use walkmesh_core::{Diagnostics, Input, ReadOptions, Registry, WriteOptions, passes};

/// Decompression ceiling while fuzzing: large enough for every seed, small enough that a
/// claimed size cannot exhaust the fuzzer's memory limit.
pub const FUZZ_MAX_DECOMPRESSED: u64 = 32 * 1024 * 1024;

/// Most polygons a mesh read from fuzz input is written with: writing (the NWN2 bake above
/// all) is linear but not free, and a fuzz input must finish in well under a second.
pub const FUZZ_MAX_POLYGONS: usize = 20_000;

/// Output file name per format id (it chooses TRX over TRN and `.glb` over `.gltf`, whose
/// buffer would be a sidecar the reader cannot see here).
fn output_name(id: &str) -> Option<&'static str> {
    match id {
        "bwm" => Some("fuzz.wok"),
        "trx" => Some("fuzz.trx"),
        "path" => Some("fuzz.path"),
        "obj" => Some("fuzz.obj"),
        "gltf" => Some("fuzz.glb"),
        _ => None,
    }
}

/// Runs `bytes` through format `id` of `registry` (see the module comment).
#[allow(clippy::panic)]
pub fn exercise(registry: &Registry, id: &str, bytes: &[u8]) {
    let Ok(format) = registry.by_id(id) else {
        return;
    };
    let options = ReadOptions {
        max_decompressed: FUZZ_MAX_DECOMPRESSED,
        ..ReadOptions::default()
    };
    let input = Input { bytes, path: None };
    if let Some(validator) = format.validator() {
        let _ = validator.validate(input, &options);
    }
    if let Some(dumper) = format.dumper()
        && let Ok(tree) = dumper.dump(input, &options)
    {
        let _ = serde_json::to_string(&tree);
    }
    let Some(reader) = format.reader() else {
        return;
    };
    let mut diag = Diagnostics::new();
    let Ok(mesh) = reader.read(input, &options, &mut diag) else {
        return;
    };
    if let Err(broken) = mesh.check() {
        panic!("the {id} reader returned a mesh that breaks the IR's invariants: {broken}");
    }
    let _ = walkmesh_core::validate::mesh_findings(&mesh);
    let _ = walkmesh_core::summary::summarize(&mesh, id);
    if mesh.polygons.len() > FUZZ_MAX_POLYGONS {
        return;
    }
    for target in registry.formats() {
        let (Some(writer), Some(target_reader), Some(name)) = (
            target.writer(),
            target.reader(),
            output_name(target.descriptor().id),
        ) else {
            continue;
        };
        let write_options = WriteOptions {
            file_name: Some(name.to_string()),
            ..WriteOptions::default()
        };
        let requirements = writer.requirements(&write_options);
        let mut diag = Diagnostics::new();
        let prepared = passes::prepare(&mesh, &requirements, &mut diag);
        // A writer may refuse a mesh (with an error naming why); what it writes must read.
        let Ok(output) = writer.write(&prepared, &write_options, &mut diag) else {
            continue;
        };
        let again = target_reader.read(
            Input {
                bytes: &output.main,
                path: None,
            },
            &options,
            &mut Diagnostics::new(),
        );
        if let Err(error) = again {
            panic!(
                "{id} → {}: the written file does not read back: {error}",
                target.descriptor().id
            );
        }
    }
}
