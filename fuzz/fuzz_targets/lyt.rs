//! Fuzz target: LYT layouts: read, checked, and written in canonical form, which must read back
//! with the same entries.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| walkmesh_fuzz::run_area("lyt", data));
