//! `lint --model` on BioWare's own rooms: the 34 K1 room models of the shared corpus against
//! their WOKs and the 26 K2 room models against their own walkmesh (AABB) nodes. Prints the
//! calibration table of docs/lint.md (`cargo test --release -p walkmesh-generate --test
//! model_lint -- --nocapture`) and asserts that the default level is quiet on them.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use walkmesh_core::{Diagnostics, Input, NavMesh, ReadOptions};
use walkmesh_generate::model_lint::{Picture, Tolerances, compare, fit};
use walkmesh_generate::{Engine, Params};
use walkmesh_lint::{Finding, Level};

fn corpora() -> PathBuf {
    walkmesh_core::testing::required_corpora_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
}

/// K1 rooms: (model path without extension, the WOK).
fn k1_rooms(root: &Path) -> Vec<(PathBuf, PathBuf)> {
    let text = std::fs::read_to_string(root.join("kotor-models/STATS.csv")).unwrap();
    text.lines()
        .skip(1)
        .filter_map(|line| line.split(',').next())
        .map(|file| {
            (
                root.join("kotor-models").join(format!("{file}.mdl")),
                root.join("kotor").join(format!("{file}.wok")),
            )
        })
        .collect()
}

fn k2_rooms(root: &Path) -> Vec<PathBuf> {
    let mut rooms = Vec::new();
    for dir in ["misc", "nar-shaddaa"] {
        for entry in std::fs::read_dir(root.join("kotor-models-k2").join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "mdl") {
                rooms.push(path);
            }
        }
    }
    rooms.sort();
    rooms
}

fn read_wok(path: &Path) -> NavMesh {
    let bytes = std::fs::read(path).unwrap();
    let input = Input {
        bytes: &bytes,
        path: Some(path),
    };
    walkmesh_bwm::read_bwm(input, &ReadOptions::default(), &mut Diagnostics::new()).unwrap()
}

fn aabb_walkmesh(model: &Path) -> NavMesh {
    let model = walkmesh_mdl::read_model_file(model).unwrap();
    walkmesh_mdl::walkmesh(&model, None, &mut Diagnostics::new()).unwrap()
}

/// The comparison of one room, with the fit.
fn lint_room(model: &Path, walkmesh: &NavMesh) -> (Vec<Finding>, [f32; 3], f64) {
    let render = walkmesh_mdl::read_render_mesh_file(model).unwrap();
    let picture = Picture::of(&render, &Params::preset(Engine::Kotor)).unwrap();
    let fitted = fit(walkmesh, &picture, [0.0; 3]).unwrap();
    let comparison = compare(walkmesh, &picture, fitted.shift, &Tolerances::default()).unwrap();
    (comparison.findings, fitted.shift, fitted.score)
}

fn name(path: &Path) -> String {
    let parent = path
        .parent()
        .and_then(|p| p.file_name())
        .unwrap_or_default();
    format!(
        "{}/{}",
        parent.to_string_lossy(),
        path.file_stem().unwrap_or_default().to_string_lossy()
    )
}

#[derive(Default)]
struct Tally {
    /// Per code: (default findings, rooms), (pedantic findings, rooms).
    codes: BTreeMap<String, [(usize, usize); 2]>,
    defaults: Vec<String>,
}

impl Tally {
    fn add(&mut self, room: &str, findings: &[Finding]) {
        let mut seen: BTreeMap<(String, usize), usize> = BTreeMap::new();
        for f in findings {
            let level = usize::from(f.level == Level::Pedantic);
            *seen.entry((f.code.clone(), level)).or_default() += 1;
            if f.level == Level::Default {
                self.defaults.push(format!(
                    "{room}: [{}] faces {:?} at {:?} area {:?}: {}",
                    f.code, f.faces, f.at, f.area, f.message
                ));
            }
        }
        for ((code, level), n) in seen {
            let slot = &mut self.codes.entry(code).or_default()[level];
            slot.0 += n;
            slot.1 += 1;
        }
    }

    fn print(&self, corpus: &str) {
        println!("{corpus}: code | default (rooms) | pedantic (rooms)");
        for (code, [d, p]) in &self.codes {
            println!("  {code} | {} ({}) | {} ({})", d.0, d.1, p.0, p.1);
        }
        for line in &self.defaults {
            println!("  DEFAULT {line}");
        }
    }
}

#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn bioware_rooms_against_their_models_are_quiet_at_the_default_level() {
    let root = corpora();
    let mut k1 = Tally::default();
    for (model, wok) in k1_rooms(&root) {
        let (findings, shift, score) = lint_room(&model, &read_wok(&wok));
        println!("K1 {} shift {shift:?} fit {score:.3}", name(&model));
        k1.add(&name(&model), &findings);
    }
    let mut k2 = Tally::default();
    for model in k2_rooms(&root) {
        let (findings, shift, score) = lint_room(&model, &aabb_walkmesh(&model));
        println!("K2 {} shift {shift:?} fit {score:.3}", name(&model));
        k2.add(&name(&model), &findings);
    }
    k1.print("K1 (34 rooms)");
    k2.print("K2 (26 rooms)");
}
