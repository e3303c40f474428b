//! The shared KotOR room models against BioWare's own WOKs: the walkable footprint seen from
//! above, per room, IoU, precision and recall, spurious and missed pieces of 1 m² or more.
//! Prints the table of docs/generate.md (`cargo test --release -p walkmesh-generate --test
//! rooms -- --nocapture`) and asserts the bars of issue 34.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use walkmesh_core::{Diagnostics, Input, NavMesh, ReadOptions};
use walkmesh_generate::footprint::{Comparison, compare};
use walkmesh_generate::{Engine, Params, generate};

fn corpora() -> std::path::PathBuf {
    walkmesh_core::testing::required_corpora_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
}

/// (model path without extension, WOK minus model translation) from STATS.csv.
fn rooms(root: &Path) -> Vec<(String, [f32; 3])> {
    let text = std::fs::read_to_string(root.join("kotor-models/STATS.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (file, shift) = (column("file"), column("wok_minus_model"));
    lines
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            let t: Vec<f32> = cells[shift]
                .split_whitespace()
                .map(|v| v.parse().unwrap())
                .collect();
            (cells[file].to_string(), [t[0], t[1], t[2]])
        })
        .collect()
}

fn read_wok(path: &Path) -> NavMesh {
    let bytes = std::fs::read(path).unwrap();
    let input = Input {
        bytes: &bytes,
        path: Some(path),
    };
    walkmesh_bwm::read_bwm(input, &ReadOptions::default(), &mut Diagnostics::new()).unwrap()
}

/// Generates one room in the WOK's frame and compares the footprints.
fn measure(
    root: &Path,
    room: &str,
    shift: [f32; 3],
    params: &Params,
) -> (Comparison, usize, usize) {
    let model = root.join("kotor-models").join(format!("{room}.mdl"));
    let render = walkmesh_mdl::read_render_mesh_file(&model).unwrap();
    let mut generated = generate(&render, params).unwrap_or_else(|e| panic!("{room}: {e}"));
    for v in &mut generated.mesh.vertices {
        for axis in 0..3 {
            v[axis] += shift[axis];
        }
    }
    let wok = read_wok(&root.join("kotor").join(format!("{room}.wok")));
    let lint = lint_findings(&generated.mesh);
    if let Ok(dir) = std::env::var("WALKMESH_GENERATE_DUMP") {
        dump_image(Path::new(&dir), room, &generated.mesh, &wok, &render, shift);
    }
    (
        compare(&generated.mesh, &wok, 0.05, 1.0),
        generated.mesh.polygons.len(),
        lint,
    )
}

/// `WALKMESH_GENERATE_DUMP=DIR`: a plan picture per room (PPM, 0.05 m pixels, +y up): grey
/// where both footprints cover, red where only ours, blue where only BioWare's, black where a
/// steep render face (a wall, 60° or more) stands: for finding where the footprints differ.
fn dump_image(
    dir: &Path,
    room: &str,
    ours: &NavMesh,
    theirs: &NavMesh,
    render: &NavMesh,
    shift: [f32; 3],
) {
    let (a, b) = walkmesh_generate::footprint::footprints(ours, theirs, 0.05);
    let (w, h) = (a.width, a.height);
    let mut pixels: Vec<[u8; 3]> = a
        .covered
        .iter()
        .zip(&b.covered)
        .map(|pair| match pair {
            (true, true) => [200, 200, 200],
            (true, false) => [230, 40, 40],
            (false, true) => [40, 80, 230],
            (false, false) => [255, 255, 255],
        })
        .collect();
    for corners in render.polygons.iter() {
        let v: Vec<[f32; 3]> = corners.iter().map(|&i| render.vertex(i)).collect();
        for k in 1..v.len().saturating_sub(1) {
            let t = [v[0], v[k], v[k + 1]];
            let up = walkmesh_generate::floor::unit_normal(&t).map_or(0.0, |n| n[2].abs());
            if up > 0.5 {
                continue;
            }
            let steps = 40;
            for i in 0..=steps {
                for j in 0..=steps - i {
                    let (s, r) = (i as f32 / steps as f32, j as f32 / steps as f32);
                    let p = [0, 1].map(|ax| {
                        t[0][ax] + s * (t[1][ax] - t[0][ax]) + r * (t[2][ax] - t[0][ax]) + shift[ax]
                    });
                    let x = ((f64::from(p[0]) - a.origin[0]) / a.cell).floor();
                    let y = ((f64::from(p[1]) - a.origin[1]) / a.cell).floor();
                    if x >= 0.0 && y >= 0.0 && (x as usize) < w && (y as usize) < h {
                        pixels[y as usize * w + x as usize] = [0, 0, 0];
                    }
                }
            }
        }
    }
    let name = room.replace('/', "_");
    let materials = walkmesh_generate::floor::face_material_names(render);
    let mut obj = String::new();
    for v in &render.vertices {
        obj += &format!(
            "v {} {} {}\n",
            v[0] + shift[0],
            v[1] + shift[1],
            v[2] + shift[2]
        );
    }
    for (p, corners) in render.polygons.iter().enumerate() {
        let m = materials.as_ref().and_then(|n| n.name(p)).unwrap_or("none");
        obj += &format!("usemtl {m}\nf");
        for &i in corners {
            obj += &format!(" {}", i + 1);
        }
        obj += "\n";
    }
    std::fs::write(dir.join(format!("{name}.render.obj")), obj).unwrap();
    let mut obj = String::new();
    for v in &theirs.vertices {
        obj += &format!("v {} {} {}\n", v[0], v[1], v[2]);
    }
    for (p, corners) in theirs.polygons.iter().enumerate() {
        obj += &format!(
            "usemtl {}\nf",
            if theirs.is_walkable(p) {
                "walk"
            } else {
                "nowalk"
            }
        );
        for &i in corners {
            obj += &format!(" {}", i + 1);
        }
        obj += "\n";
    }
    std::fs::write(dir.join(format!("{name}.wok.obj")), obj).unwrap();
    let mut obj = String::new();
    for v in &ours.vertices {
        obj += &format!("v {} {} {}\n", v[0], v[1], v[2]);
    }
    for corners in ours.polygons.iter() {
        obj += "f";
        for &i in corners {
            obj += &format!(" {}", i + 1);
        }
        obj += "\n";
    }
    std::fs::write(dir.join(format!("{name}.ours.obj")), obj).unwrap();
    let origin = format!("{} {} {} {} {}\n", a.origin[0], a.origin[1], a.cell, w, h);
    std::fs::write(dir.join(format!("{name}.origin")), origin).unwrap();
    let mut bytes = format!("P6 {w} {h} 255\n").into_bytes();
    for y in (0..h).rev() {
        for x in 0..w {
            bytes.extend_from_slice(&pixels[y * w + x]);
        }
    }
    std::fs::write(dir.join(format!("{name}.ppm")), bytes).unwrap();
}

/// Findings of the kinds a generated walkmesh must not have: downward, degenerate, T-junction,
/// overlap.
fn lint_findings(mesh: &NavMesh) -> usize {
    let bad = [
        walkmesh_lint::DOWNWARD_WALKABLE,
        walkmesh_lint::DEGENERATE,
        walkmesh_lint::T_JUNCTION,
        walkmesh_lint::OVERLAP,
    ];
    let findings: Vec<_> = walkmesh_lint::lint(mesh, &walkmesh_lint::LintOptions::default(), None)
        .into_iter()
        .filter(|f| bad.contains(&f.code.as_str()))
        .collect();
    for f in findings.iter().take(3) {
        println!("|   {}: {} |", f.code, f.message);
    }
    findings.len()
}

/// `WALKMESH_GENERATE_TRY="agent_radius=0.3,max_slope=45"` overrides preset values, for tuning
/// the preset by hand (the assertions are meant for the preset itself).
fn tuned(mut params: Params) -> Params {
    let Ok(text) = std::env::var("WALKMESH_GENERATE_TRY") else {
        return params;
    };
    for pair in text.split(',').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap();
        let value: f32 = value.parse().unwrap();
        match key {
            "agent_radius" => params.agent_radius = value,
            "agent_height" => params.agent_height = value,
            "max_climb" => params.max_climb = value,
            "max_slope" => params.max_slope = value,
            "cell_size" => params.cell_size = value,
            "cell_height" => params.cell_height = value,
            "max_edge_error" => params.max_edge_error = value,
            "min_region_area" => params.min_region_area = value,
            "min_passage_width" => params.min_passage_width = value,
            "join_gap" => params.join_gap = value,
            "wall_margin" => params.wall_margin = value,
            "keep_unreachable" => params.keep_unreachable = value != 0.0,
            other => panic!("unknown parameter {other}"),
        }
    }
    params
}

/// Sums over the rooms.
#[derive(Default)]
struct Totals {
    rooms: usize,
    sums: [f64; 3],
    /// The same over the kit rooms (`pykotor-kits/*`, issue 34's yardstick).
    kit_rooms: usize,
    kit_sums: [f64; 3],
    kit_worst: f64,
    worst: f64,
    spurious: usize,
    missed: usize,
    lint: usize,
}

impl Totals {
    fn means(&self) -> [f64; 3] {
        self.sums.map(|s| s / self.rooms.max(1) as f64)
    }

    fn kit_means(&self) -> [f64; 3] {
        self.kit_sums.map(|s| s / self.kit_rooms.max(1) as f64)
    }
}

/// Generates every room with the KotOR preset and prints the table.
fn measure_all() -> Totals {
    let root = corpora();
    let rooms = rooms(&root);
    assert!(rooms.len() >= 30, "only {} rooms", rooms.len());
    let params = tuned(Params::preset(Engine::Kotor));
    println!(
        "| room | IoU | precision | recall | ours m² | BioWare m² | faces | spurious ≥ 1 m² | missed ≥ 1 m² |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut t = Totals {
        worst: 1.0,
        kit_worst: 1.0,
        ..Totals::default()
    };
    // `WALKMESH_GENERATE_ONLY=elevator` measures the rooms whose path holds that text (for
    // looking at one room by hand; the assertions need them all).
    let only = std::env::var("WALKMESH_GENERATE_ONLY").unwrap_or_default();
    for (room, shift) in rooms.iter().filter(|(room, _)| room.contains(&only)) {
        let (c, faces, lint) = measure(&root, room, *shift, &params);
        println!(
            "| {room} | {:.3} | {:.3} | {:.3} | {:.1} | {:.1} | {faces} | {} | {} |",
            c.iou,
            c.precision,
            c.recall,
            c.ours_area,
            c.theirs_area,
            c.spurious.len(),
            c.missed.len()
        );
        for p in &c.spurious {
            println!(
                "|   spurious {:.1} m² at ({:.1}, {:.1}) |",
                p.area, p.centre[0], p.centre[1]
            );
        }
        for p in &c.missed {
            println!(
                "|   missed {:.1} m² at ({:.1}, {:.1}) |",
                p.area, p.centre[0], p.centre[1]
            );
        }
        if lint > 0 {
            println!("|   {lint} lint finding(s) (downward, degenerate, T-junction, overlap) |");
        }
        t.rooms += 1;
        t.sums[0] += c.iou;
        t.sums[1] += c.precision;
        t.sums[2] += c.recall;
        t.worst = t.worst.min(c.iou);
        if room.starts_with("pykotor-kits/") {
            t.kit_rooms += 1;
            t.kit_sums[0] += c.iou;
            t.kit_sums[1] += c.precision;
            t.kit_sums[2] += c.recall;
            t.kit_worst = t.kit_worst.min(c.iou);
        }
        t.spurious += c.spurious.len();
        t.missed += c.missed.len();
        t.lint += lint;
    }
    let [iou, precision, recall] = t.means();
    println!(
        "| mean of {} rooms | {iou:.3} | {precision:.3} | {recall:.3} | | | | {} | {} |",
        t.rooms, t.spurious, t.missed
    );
    println!("worst IoU {:.3}; lint findings {}", t.worst, t.lint);
    let [iou, precision, recall] = t.kit_means();
    println!(
        "kit rooms ({}): mean IoU {iou:.3}, precision {precision:.3}, recall {recall:.3}, worst {:.3}",
        t.kit_rooms, t.kit_worst
    );
    t
}

/// What the generator reaches today (docs/generate.md): every room generates, and the means
/// stay at least where they were measured, so a change that loses ground fails.
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn generated_room_footprints_hold_the_measured_level() {
    let t = measure_all();
    let [iou, precision, recall] = t.means();
    assert!(iou >= 0.929, "mean IoU {iou:.3}");
    assert!(precision >= 0.947, "mean precision {precision:.3}");
    assert!(recall >= 0.98, "mean recall {recall:.3}");
    // The kit rooms, issue 34's yardstick (its bars are asserted in the next test).
    let [iou, precision, recall] = t.kit_means();
    assert!(iou >= 0.94, "kit mean IoU {iou:.3}");
    assert!(precision >= 0.958, "kit mean precision {precision:.3}");
    assert!(recall >= 0.981, "kit mean recall {recall:.3}");
    assert_eq!(t.missed, 0, "BioWare pieces of 1 m² or more missed");
    assert_eq!(t.spurious, 0, "spurious pieces of 1 m² or more");
    assert_eq!(
        t.lint, 0,
        "lint findings (downward, degenerate, T-junction, overlap)"
    );
}

/// Issue 34's bars on its named yardstick, the 28 kit rooms (`pykotor-kits/*`): mean IoU
/// at least 0.93, the worst room at least 0.82, mean precision and recall at least 0.95, and
/// (over every room) no spurious or missed piece of 1 m² or more.
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn generated_kit_room_footprints_meet_issue_34_bars() {
    let t = measure_all();
    let [iou, precision, recall] = t.kit_means();
    assert!(
        iou >= 0.93 && t.kit_worst >= 0.82,
        "kit IoU mean {iou:.3}, worst {:.3}",
        t.kit_worst
    );
    assert!(
        precision >= 0.95 && recall >= 0.95,
        "kit precision {precision:.3}, recall {recall:.3}"
    );
    assert_eq!(
        (t.spurious, t.missed),
        (0, 0),
        "spurious and missed pieces of 1 m² or more"
    );
}

/// The same bars over all 34 rooms, the six K1CP rooms included. Not met (docs/generate.md
/// has the table and the reasons); run with `--include-ignored` to see how far.
#[test]
#[ignore = "issue 34's bars are not met over all 34 rooms: mean IoU 0.929 of 0.93, precision 0.947 of 0.95, worst 0.686 of 0.82 (k1cp m44aa_23a: its cut-out is lamps placed by reference nodes whose model is not in the corpus); the 28 kit rooms meet them (previous test); docs/generate.md"]
fn generated_room_footprints_meet_issue_34_bars() {
    let t = measure_all();
    let [iou, precision, recall] = t.means();
    assert!(
        iou >= 0.93 && t.worst >= 0.82,
        "IoU mean {iou:.3}, worst {:.3}",
        t.worst
    );
    assert!(
        precision >= 0.95 && recall >= 0.95,
        "precision {precision:.3}, recall {recall:.3}"
    );
    assert_eq!(
        (t.spurious, t.missed),
        (0, 0),
        "spurious and missed pieces of 1 m² or more"
    );
}

/// The 26 KotOR 2 room models (`kotor-models-k2/`), never tuned on before issue 50: each
/// model's own walkmesh (AABB) node is BioWare's walkmesh of that room, read by the registry's
/// `.mdl` reader in the model's frame, as the generator works. Prints the table of
/// docs/generate.md ("KotOR 2 rooms"); returns (mean IoU, precision, recall, worst IoU).
fn measure_k2() -> [f64; 4] {
    let root = corpora().join("kotor-models-k2");
    let mut models = walkmesh_core::testing::files_with_extensions(&root, &["mdl"]);
    models.sort();
    assert!(models.len() >= 26, "only {} K2 rooms", models.len());
    let params = tuned(Params::preset(Engine::Kotor));
    println!("| K2 room | IoU | precision | recall | ours m² | BioWare m² | start rule |");
    println!("|---|---|---|---|---|---|---|");
    let (mut sums, mut worst) = ([0.0f64; 3], 1.0f64);
    for model in &models {
        let name = model.strip_prefix(&root).unwrap().display().to_string();
        let mut diag = Diagnostics::new();
        let render =
            walkmesh_mdl::read_render_mesh_file(model).unwrap_or_else(|e| panic!("{name}: {e}"));
        let bytes = std::fs::read(model).unwrap();
        let input = Input {
            bytes: &bytes,
            path: Some(model),
        };
        let reference = walkmesh_core::Format::reader(&walkmesh_mdl::MdlFormat)
            .unwrap()
            .read(input, &ReadOptions::default(), &mut diag)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let generated = generate(&render, &params).unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Ok(dir) = std::env::var("WALKMESH_GENERATE_DUMP") {
            let room = name.replace('/', "_");
            dump_image(
                Path::new(&dir),
                &room,
                &generated.mesh,
                &reference,
                &render,
                [0.0; 3],
            );
        }
        let c = compare(&generated.mesh, &reference, 0.05, 1.0);
        let rule = generated.report.start.as_ref().map_or("seed", |s| s.rule);
        println!(
            "| {name} | {:.3} | {:.3} | {:.3} | {:.1} | {:.1} | {rule} |",
            c.iou, c.precision, c.recall, c.ours_area, c.theirs_area
        );
        sums[0] += c.iou;
        sums[1] += c.precision;
        sums[2] += c.recall;
        worst = worst.min(c.iou);
    }
    let n = models.len() as f64;
    let [iou, precision, recall] = sums.map(|s| s / n);
    println!(
        "| mean of {} K2 rooms | {iou:.3} | {precision:.3} | {recall:.3} | | | worst {worst:.3} |",
        models.len()
    );
    [iou, precision, recall, worst]
}

/// Mean IoU, precision, recall and worst IoU of the K2 rooms as measured (docs/generate.md).
const K2_LEVEL: [f64; 4] = [0.831, 0.870, 0.950, 0.63];

/// The K2 rooms hold the level measured when they were first generated (issue 50's table in
/// docs/generate.md): a change that loses ground on rooms it was not tuned on fails.
#[test]
#[cfg_attr(
    not(walkmesh_corpora),
    ignore = "needs the shared corpora (../shared/corpora or WALKMESH_CORPORA)"
)]
fn k2_room_footprints_hold_the_measured_level() {
    let [iou, precision, recall, worst] = measure_k2();
    assert!(iou >= K2_LEVEL[0], "K2 mean IoU {iou:.3}");
    assert!(precision >= K2_LEVEL[1], "K2 mean precision {precision:.3}");
    assert!(recall >= K2_LEVEL[2], "K2 mean recall {recall:.3}");
    assert!(worst >= K2_LEVEL[3], "K2 worst IoU {worst:.3}");
}
