//! The fuzz harness: the same function the regression tests run on stable
//! (`tests/src/exercise.rs`, included here by path so that this crate needs no test-only
//! dependencies), with the default registry built once.

#[path = "../../tests/src/exercise.rs"]
mod exercise;
#[path = "../../tests/src/exercise_area.rs"]
mod exercise_area;
#[path = "../../tests/src/exercise_model.rs"]
mod exercise_model;

use std::sync::OnceLock;

use walkmesh_core::Registry;

/// Runs one fuzz input through format `id` (see `tests/src/exercise.rs`).
pub fn run(id: &str, bytes: &[u8]) {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    let registry = REGISTRY.get_or_init(walkmesh_formats::default_registry);
    exercise::exercise(registry, id, bytes);
}

/// The area targets (see `tests/src/exercise_area.rs`).
pub use exercise_area::AREA_TARGETS;

/// Runs one fuzz input through the KotOR area reader `target` (`erf`, `lyt`, `vis`, `kit`,
/// `indoor`; see `tests/src/exercise_area.rs`).
pub fn run_area(target: &str, bytes: &[u8]) {
    exercise_area::exercise_area(target, bytes);
}

/// Runs one fuzz input (a `.mdl`, optionally followed by its `.mdx`) through the KotOR model
/// reader (see `tests/src/exercise_model.rs`).
pub fn run_model(bytes: &[u8]) {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    let registry = REGISTRY.get_or_init(walkmesh_formats::default_registry);
    exercise_model::exercise_model(registry, bytes);
}
