#![cfg(all(feature = "obj", feature = "bwm", feature = "gltf"))]
#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Modelling-tool input through the command line: welding by default, `--weld`, the seam
//! warning and finding, and a Blender-style glTF edit keeping transitions (issue #9).

use std::path::Path;

use walkmesh_tests::walkmesh;

/// Two 1×1 floors meeting along x = 1, each a Blender object with its own vertices.
const TWO_OBJECTS: &str = "o left\nv 0 0 0\nv 1 0 0\nv 1 0 -1\nv 0 0 -1\nusemtl Stone\nf 1 2 3 4\n\
o right\nv 1 0 0\nv 2 0 0\nv 2 0 -1\nv 1 0 -1\nusemtl Grass\nf 5 6 7 8\n";

fn run(args: &[&str]) -> walkmesh_tests::CliRun {
    walkmesh(args.iter().copied())
}

fn info(path: &Path) -> serde_json::Value {
    let run = run(&["info", path.to_str().unwrap(), "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    serde_json::from_str(&run.stdout).unwrap()
}

fn codes(path: &Path) -> Vec<String> {
    let run = run(&["validate", path.to_str().unwrap(), "--json"]);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    ["errors", "warnings"]
        .iter()
        .flat_map(|k| report[k].as_array().unwrap().clone())
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn blender_objects_are_welded_by_default_and_weld_off_is_flagged() {
    let dir = tempfile::tempdir().unwrap();
    let obj = dir.path().join("two.obj");
    std::fs::write(&obj, TWO_OBJECTS).unwrap();
    let (obj, wok) = (obj.to_str().unwrap(), dir.path().join("two.wok"));
    // info and validate see the OBJ as convert writes it.
    assert_eq!(info(Path::new(obj))["components"], 1);
    assert!(!codes(Path::new(obj)).contains(&"mesh.unlinked_coincident_edge".into()));

    let converted = run(&["convert", obj, wok.to_str().unwrap()]);
    assert_eq!(converted.code, 0, "{}", converted.stderr);
    assert!(
        converted.stderr.contains("prepare.welded"),
        "{}",
        converted.stderr
    );
    assert!(
        converted.stderr.contains("2 vertices"),
        "{}",
        converted.stderr
    );
    let facts = info(&wok);
    assert_eq!(
        (facts["components"].clone(), facts["boundary_loops"].clone()),
        (1.into(), 1.into())
    );
    assert!(!codes(&wok).contains(&"mesh.unlinked_coincident_edge".into()));

    // --weld off keeps vertex identity: the seam stays, convert says so, validate flags it.
    let apart = dir.path().join("apart.wok");
    let converted = run(&["convert", obj, apart.to_str().unwrap(), "--weld", "off"]);
    assert_eq!(converted.code, 0);
    assert!(
        converted
            .stderr
            .contains("prepare.unlinked_coincident_edges")
            && converted.stderr.contains("--weld exact"),
        "{}",
        converted.stderr
    );
    assert_eq!(info(&apart)["components"], 2);
    assert!(codes(&apart).contains(&"mesh.unlinked_coincident_edge".into()));

    // --weld D and bad values.
    let near = dir.path().join("near.wok");
    assert_eq!(
        run(&["convert", obj, near.to_str().unwrap(), "--weld", "0.001"]).code,
        0
    );
    assert_eq!(info(&near)["components"], 1);
    for bad in ["-1", "nan", "inf", "sometimes"] {
        let refused = run(&["convert", obj, near.to_str().unwrap(), "--weld", bad]);
        assert_eq!(refused.code, 2, "--weld {bad}");
    }
}

#[test]
fn our_own_obj_keeps_vertex_identity() {
    let dir = tempfile::tempdir().unwrap();
    let apart = dir.path().join("apart.wok");
    let obj = dir.path().join("two.obj");
    std::fs::write(&obj, TWO_OBJECTS).unwrap();
    run(&[
        "convert",
        obj.to_str().unwrap(),
        apart.to_str().unwrap(),
        "--weld",
        "off",
    ]);
    // The .wok has the seam on purpose now; converting it to OBJ and back keeps it.
    let ours = dir.path().join("ours.obj");
    let back = dir.path().join("back.wok");
    assert_eq!(
        run(&["convert", apart.to_str().unwrap(), ours.to_str().unwrap()]).code,
        0
    );
    let converted = run(&["convert", ours.to_str().unwrap(), back.to_str().unwrap()]);
    assert!(
        !converted.stderr.contains("prepare.welded"),
        "{}",
        converted.stderr
    );
    assert_eq!(info(&back)["components"], 2);
    assert_eq!(
        std::fs::read(&apart).unwrap(),
        std::fs::read(&back).unwrap()
    );
}
