//! Fuzz target: kit JSON (Holocron Toolset kits): components' door hooks placed, their doors looked
//! up, and the hooks linked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| walkmesh_fuzz::run_area("kit", data));
