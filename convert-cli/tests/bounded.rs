#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Work that must follow the picture's or the mesh's size, not the coordinates: the real
//! process under an address-space cap (`ulimit -v`) and a wall-clock limit, so that a
//! regression fails the test instead of taking the machine (issue #33 saw 24 GiB).

use std::path::Path;
use std::process::Output;
use std::time::Duration;

mod common;
use common::{bounded_by, code};

/// Address space allowed to one run (KiB): the binary, its allocator and a 8192-pixel
/// picture fit with room to spare; the runaway render reached 24 GiB.
const ADDRESS_SPACE_KIB: u64 = 1 << 20;

/// Runs `walkmesh ARGS` under the cap, killing it after `limit`.
fn bounded(args: &[&str], limit: Duration) -> Output {
    bounded_by(args, ADDRESS_SPACE_KIB, limit)
}

/// OBJ files (Y up) whose geometry has no width in plan, far from the origin.
fn far_inputs(dir: &Path) -> Vec<String> {
    let files = [
        // The report's vertical triangle: x = 1e30 for all corners.
        (
            "vertical.obj",
            "v 1e30 0 -73\nv 1e30 0 -118\nv 1e30 5 -100\nf 1 2 3\n",
        ),
        // Zero area, one point in plan at (1e30, -1e30).
        (
            "point.obj",
            "v 1e30 0 1e30\nv 1e30 1 1e30\nv 1e30 2 1e30\nf 1 2 3\n",
        ),
        // Walkable, tiny and far on the negative side.
        (
            "tiny.obj",
            "usemtl Stone\nv -1e30 0 7\nv -1e30 0 7.000001\nv -1.0000001e30 0 7\nf 1 2 3\n",
        ),
    ];
    files
        .iter()
        .map(|(name, text)| {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            path.to_str().unwrap().to_string()
        })
        .collect()
}

#[test]
fn far_degenerate_geometry_renders_views_and_diffs_in_bounded_memory_and_time() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = far_inputs(dir.path());
    let near = dir.path().join("near.obj");
    std::fs::write(&near, "v 0 0 0\nv 1 0 0\nv 0 0 -1\nf 1 2 3\n").unwrap();
    let near = near.to_str().unwrap();
    let limit = Duration::from_secs(60);
    let out = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    for (i, input) in inputs.iter().enumerate() {
        for mode in ["materials", "components", "regions", "aabb-depth"] {
            for ext in ["svg", "png"] {
                let picture = out(&format!("{i}-{mode}.{ext}"));
                let run = bounded(&["render", input, "-o", &picture, "--mode", mode], limit);
                assert_eq!(code(&run), Some(0), "{input} {mode} {ext}: {run:?}");
                assert!(std::fs::metadata(&picture).unwrap().len() < 4 << 20);
            }
        }
        // Tiles mode needs a tile grid, which an OBJ has not: a clear refusal.
        let run = bounded(
            &["render", input, "-o", &out("tiles.png"), "--mode", "tiles"],
            limit,
        );
        assert_eq!(code(&run), Some(2), "{run:?}");
        assert!(String::from_utf8_lossy(&run.stderr).contains("no tile grid"));
        let wide = out(&format!("{i}-wide.png"));
        let run = bounded(
            &["render", input, near, "-o", &wide, "--width", "8192"],
            limit,
        );
        assert_eq!(code(&run), Some(0), "{input} overlaid: {run:?}");
        let page = out(&format!("{i}.html"));
        let run = bounded(&["view", input, near, "-o", &page], limit);
        assert_eq!(code(&run), Some(0), "{input} view: {run:?}");
        let (report, overlay) = (out(&format!("{i}-diff.html")), out(&format!("{i}-o.png")));
        for other in [near, input.as_str()] {
            let run = bounded(
                &[
                    "diff",
                    input,
                    other,
                    "--html",
                    &report,
                    "--overlay",
                    &overlay,
                    "--reach",
                ],
                limit,
            );
            assert!(matches!(code(&run), Some(0 | 1)), "{input} diff: {run:?}");
            assert!(std::fs::metadata(&report).unwrap().len() < 4 << 20);
        }
    }
}
