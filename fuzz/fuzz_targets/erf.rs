//! Fuzz target: ERF/MOD/RIM archives: listing, members taken out (layouts, visibility and walkmeshes
//! read as such), and the archive laid out again with a member added, which must read back.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| walkmesh_fuzz::run_area("erf", data));
