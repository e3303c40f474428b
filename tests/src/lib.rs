//! Helpers for the workspace-level tests in `tests/tests/`.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde::Deserialize;

pub mod exercise;
pub mod exercise_area;
pub mod exercise_model;
#[cfg(feature = "nwn2")]
pub mod seeds;

/// The repository root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// The project's own fixtures, `corpora/`.
pub fn fixtures_dir() -> PathBuf {
    repo_root().join("corpora")
}

/// The shared real-file corpora, if present. Only for code that works either way (the fuzz
/// seeds); a test that needs them calls [`required_corpora`] and carries
/// `#[cfg_attr(not(walkmesh_corpora), ignore = "needs the shared corpora …")]`.
pub fn shared_corpora() -> Option<PathBuf> {
    walkmesh_core::testing::corpora_dir(&repo_root())
}

/// The shared real-file corpora for a test that needs them: panics when they are missing (the
/// test is then ignored at build time, so reaching this without them is an error).
pub fn required_corpora() -> PathBuf {
    walkmesh_core::testing::required_corpora_dir(&repo_root())
}

/// One entry of `corpora/manifest.ron`.
#[derive(Debug, Deserialize)]
pub struct FixtureFacts {
    pub file: String,
    pub vertices: usize,
    pub faces: usize,
    pub walkable_faces: usize,
    pub walkable_area: f64,
    pub components: usize,
    pub boundary_loops: usize,
    pub outer_loops: usize,
    pub hole_loops: usize,
    pub non_manifold_edges: usize,
    pub bbox_min: (f32, f32, f32),
    pub bbox_max: (f32, f32, f32),
    pub materials: BTreeMap<String, usize>,
}

/// The fixtures manifest.
pub fn manifest() -> Vec<FixtureFacts> {
    let path = fixtures_dir().join("manifest.ron");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    ron::from_str(&text).unwrap_or_default()
}

/// Output of one `walkmesh` run.
#[derive(Debug)]
pub struct CliRun {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the command line in-process.
pub fn walkmesh<I, S>(args: I) -> CliRun
where
    I: IntoIterator<Item = S>,
    S: Into<OsString>,
{
    let mut argv: Vec<OsString> = vec!["walkmesh".into()];
    argv.extend(args.into_iter().map(Into::into));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = walkmesh_cli::run(argv, &mut out, &mut err);
    CliRun {
        code,
        stdout: String::from_utf8_lossy(&out).into_owned(),
        stderr: String::from_utf8_lossy(&err).into_owned(),
    }
}

/// xorshift64*: deterministic pseudo-random numbers for mutation tests.
#[derive(Debug, Clone)]
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..bound` (0 when `bound` is 0).
    pub fn below(&mut self, bound: usize) -> usize {
        if bound == 0 {
            0
        } else {
            (self.next_u64() % bound as u64) as usize
        }
    }
}

/// A room model `NAME.mdl` + `NAME.mdx` in `dir` (KotOR 1, the layout's binary form): one
/// render floor from `min` to `max` at height 0, in room coordinates, textured `stone01`.
/// Returns the two paths; a test fixture, so a file it cannot write ends the test.
pub fn floor_room_model(
    dir: &Path,
    name: &str,
    min: [f32; 2],
    max: [f32; 2],
) -> (PathBuf, PathBuf) {
    quad_room_model(
        dir,
        name,
        [
            [min[0], min[1], 0.0],
            [max[0], min[1], 0.0],
            [max[0], max[1], 0.0],
            [min[0], max[1], 0.0],
        ],
    )
}

/// A room model `NAME.mdl` + `NAME.mdx` in `dir` (KotOR 1) whose one render floor is the quad
/// `corners` (counter-clockwise seen from above, room coordinates), textured `stone01`.
#[allow(clippy::panic)]
pub fn quad_room_model(dir: &Path, name: &str, corners: [[f32; 3]; 4]) -> (PathBuf, PathBuf) {
    use walkmesh_mdl::synthetic::{SyntheticMesh, SyntheticNode, build};
    let floor = SyntheticNode::trimesh(
        "floor",
        0,
        SyntheticMesh {
            texture: "stone01".into(),
            vertices: corners.to_vec(),
            faces: vec![([0, 1, 2], 0), ([0, 2, 3], 0)],
            render: true,
        },
    );
    let nodes = [
        SyntheticNode::dummy(name, None, [0.0; 3], [1.0, 0.0, 0.0, 0.0]),
        floor,
    ];
    let built = build(walkmesh_mdl::Game::Kotor1, name, &nodes);
    let (mdl, mdx) = (
        dir.join(format!("{name}.mdl")),
        dir.join(format!("{name}.mdx")),
    );
    std::fs::write(&mdl, &built.mdl).unwrap_or_else(|e| panic!("{}: {e}", mdl.display()));
    std::fs::write(&mdx, &built.mdx).unwrap_or_else(|e| panic!("{}: {e}", mdx.display()));
    (mdl, mdx)
}
