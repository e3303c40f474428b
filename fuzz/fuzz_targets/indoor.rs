//! Fuzz target: Indoor Map Builder `.indoor` maps: room placements applied and the map built
//! with no kits loaded.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| walkmesh_fuzz::run_area("indoor", data));
