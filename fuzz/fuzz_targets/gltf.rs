//! Fuzz target: the `gltf` format's validator, dumper and reader, then read → write → read
//! into every format.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| walkmesh_fuzz::run("gltf", data));
