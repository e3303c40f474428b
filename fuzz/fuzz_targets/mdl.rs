//! Fuzz target: the KotOR model reader (a `.mdl`, optionally followed by its `.mdx`): the
//! `mdl` format's reader with read → write → read into every format, and the model tree,
//! render mesh and walkmesh node with and without the `.mdx`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| walkmesh_fuzz::run_model(data));
