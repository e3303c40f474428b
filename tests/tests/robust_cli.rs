#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Issue #33's robustness items that the command line shows: options with stated maxima,
//! paths that are not regular files, names that are not ASCII, archives with a name twice.

use walkmesh_tests::{fixtures_dir, walkmesh};

#[test]
fn reach_pairs_above_the_stated_maximum_are_refused_before_any_work() {
    let floor = fixtures_dir().join("obj/flat_floor.obj");
    let floor = floor.to_str().unwrap();
    let started = std::time::Instant::now();
    for too_many in ["18446744073709551615", "1000001"] {
        let run = walkmesh(["diff", floor, floor, "--reach", "--reach-pairs", too_many]);
        assert_eq!(run.code, 2, "{too_many}: {}", run.stderr);
        assert!(
            run.stderr.contains("--reach-pairs") && run.stderr.contains("1000000"),
            "{}",
            run.stderr
        );
    }
    assert!(started.elapsed().as_secs() < 10);
    // The maximum itself is accepted, and its bound is what --help says.
    let run = walkmesh([
        "diff",
        floor,
        floor,
        "--reach",
        "--reach-pairs",
        "1000000",
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["reach"]["pairs"], 1_000_000);
    let help = walkmesh(["diff", "--help"]);
    assert!(help.stdout.contains("at most 1000000"), "{}", help.stdout);
}
