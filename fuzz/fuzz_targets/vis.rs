//! Fuzz target: VIS visibility: read, checked, and written with a room added, which must read
//! back unchanged.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| walkmesh_fuzz::run_area("vis", data));
