//! One hostile input through the KotOR model reader (`walkmesh-mdl`): the registered `mdl`
//! format (the walkmesh node, read from the `.mdl` alone, then read → write → read into every
//! format, as [`crate::exercise`] does for every format), and the model tree, the render mesh
//! and the walkmesh node read with and without the `.mdx`. Shared by the `mdl` cargo-fuzz
//! target (which includes this file by path) and the regression tests.
//!
//! An input is a `.mdl` followed by its `.mdx`: the `.mdl` is as long as its wrapper says
//! (12 bytes + the model size at byte 4), the rest is the `.mdx`. A `.mdl` alone is an input
//! without `.mdx`.

use walkmesh_core::{Diagnostics, Registry};

/// The `.mdl` and, when bytes follow it, the `.mdx` of a fuzz input.
pub fn split_model(bytes: &[u8]) -> (&[u8], Option<&[u8]>) {
    let size = bytes
        .get(4..8)
        .and_then(|b| <[u8; 4]>::try_from(b).ok())
        .map(u32::from_le_bytes);
    let end = size.and_then(|s| (s as usize).checked_add(12));
    match end.and_then(|end| Some((bytes.get(..end)?, bytes.get(end..)?))) {
        Some((mdl, mdx)) if !mdx.is_empty() => (mdl, Some(mdx)),
        _ => (bytes, None),
    }
}

/// Runs `bytes` through the model reader (see the module comment). Panics only on a bug: a
/// panic inside the library or a mesh that breaks the IR's invariants.
#[allow(clippy::panic)]
pub fn exercise_model(registry: &Registry, bytes: &[u8]) {
    let (mdl, mdx) = split_model(bytes);
    crate::exercise::exercise(registry, "mdl", mdl);
    for mdx in [None, mdx] {
        let Ok(model) = walkmesh_mdl::read_model(mdl, mdx) else {
            continue;
        };
        if let Ok(mesh) = walkmesh_mdl::render_mesh(&model)
            && let Err(broken) = mesh.check()
        {
            panic!("the render mesh breaks the IR's invariants: {broken}");
        }
        if let Ok(mesh) = walkmesh_mdl::walkmesh(&model, None, &mut Diagnostics::new())
            && let Err(broken) = mesh.check()
        {
            panic!("the walkmesh node's mesh breaks the IR's invariants: {broken}");
        }
    }
}
