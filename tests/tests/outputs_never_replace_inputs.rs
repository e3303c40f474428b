#![cfg(all(
    unix,
    feature = "obj",
    feature = "gltf",
    feature = "bwm",
    feature = "mdl"
))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! No command replaces a file it read, also when the file was opened by a reader beside the
//! one named (docs/robustness.md, "Outputs never replace an input"): a model's `.mdx`, a glTF
//! file's external `.bin` buffer, a kit's walkmesh. Every command that writes a file is run
//! with such an input and an output that names the file read (directly, through a symbolic or
//! hard link, by another spelling, or as the sidecar the output brings): it exits 3 saying so,
//! and the file keeps its bytes. `cli_contract.rs` (`no_command_writes_over_its_input`)
//! covers the files named on the command line.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use walkmesh_tests::{CliRun, fixtures_dir, floor_room_model, walkmesh};

type Args<'a> = Vec<&'a dyn AsRef<OsStr>>;

fn run(parts: &[&dyn AsRef<OsStr>]) -> CliRun {
    walkmesh(parts.iter().map(|p| p.as_ref().to_os_string()))
}

/// Runs each case in turn; each must be refused as a write over a file the command read
/// (exit 3, the message saying so and naming `naming`), and `kept` must still hold `bytes`.
fn each_refused(cases: &[(&str, Args<'_>)], kept: &Path, bytes: &[u8], naming: &[&str]) {
    for (what, args) in cases {
        let done = run(args);
        assert_eq!(done.code, 3, "{what}: {}{}", done.stdout, done.stderr);
        assert!(
            done.stderr.contains("is a file this command read")
                && done.stderr.contains("nothing was written"),
            "{what}: {}",
            done.stderr
        );
        for name in naming {
            assert!(
                done.stderr.contains(name),
                "{what}: names {name}: {}",
                done.stderr
            );
        }
        assert_eq!(
            std::fs::read(kept).unwrap(),
            bytes,
            "{what}: {} changed",
            kept.display()
        );
    }
}

/// No temporary file is left in `dir`.
fn no_leftovers(dir: &Path) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name();
        assert!(
            !name.to_string_lossy().starts_with(".walkmesh-"),
            "{} left in {}",
            name.to_string_lossy(),
            dir.display()
        );
    }
}

/// `scene.gltf` with its buffer `scene.bin` beside it, written by `convert` from an OBJ.
fn gltf_scene(dir: &Path) -> (PathBuf, PathBuf) {
    let gltf = dir.join("scene.gltf");
    let done = run(&[&"convert", &fixtures_dir().join("obj/two_rooms.obj"), &gltf]);
    assert_eq!(done.code, 0, "{}", done.stderr);
    let bin = dir.join("scene.bin");
    assert!(bin.is_file());
    (gltf, bin)
}

/// `NAME.gltf` whose buffer is the file `buffer` (any name) beside it, holding the buffer
/// and then some bytes past its declared length (read but ignored: a rewrite would differ).
fn gltf_with_buffer(dir: &Path, name: &str, buffer: &str) -> (PathBuf, PathBuf) {
    let (gltf, bin) = gltf_scene(dir);
    let text = std::fs::read_to_string(&gltf).unwrap();
    assert!(text.contains("\"scene.bin\""), "{text}");
    let renamed = dir.join(format!("{name}.gltf"));
    std::fs::write(
        &renamed,
        text.replace("\"scene.bin\"", &format!("\"{buffer}\"")),
    )
    .unwrap();
    let mut bytes = std::fs::read(&bin).unwrap();
    bytes.extend_from_slice(b"not read");
    let moved = dir.join(buffer);
    std::fs::write(&moved, bytes).unwrap();
    std::fs::remove_file(&gltf).unwrap();
    if moved != bin {
        std::fs::remove_file(&bin).unwrap();
    }
    (renamed, moved)
}

/// Names of `file` other than its own: a symbolic link `link_name` and a hard link
/// `hard_name` beside it, and `sub/../NAME`.
fn other_names(file: &Path, link_name: &str, hard_name: &str) -> Vec<PathBuf> {
    let dir = file.parent().unwrap();
    let link = dir.join(link_name);
    std::os::unix::fs::symlink(file, &link).unwrap();
    let hard = dir.join(hard_name);
    std::fs::hard_link(file, &hard).unwrap();
    let sub = dir.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    vec![link, hard, sub.join("..").join(file.file_name().unwrap())]
}

#[test]
fn generate_never_replaces_the_mdx_of_its_model() {
    let dir = tempfile::tempdir().unwrap();
    let (mdl, mdx) = floor_room_model(dir.path(), "room", [0.0, 0.0], [10.0, 10.0]);
    let bytes = std::fs::read(&mdx).unwrap();
    let mut targets = vec![mdx.clone()];
    targets.extend(other_names(&mdx, "x.wok", "h.wok"));
    for target in &targets {
        let what = format!("generate -o {}", target.display());
        let shown = target.display().to_string();
        let args: Args<'_> = vec![&"generate", &mdl, &"-o", target, &"--to", &"wok"];
        each_refused(&[(&what, args)], &mdx, &bytes, &[&shown]);
    }
    no_leftovers(dir.path());
    // The same model to another file is written (the refusal is about the file, not the run).
    let done = run(&[&"generate", &mdl, &"-o", &dir.path().join("room.wok")]);
    assert_eq!(done.code, 0, "{}", done.stderr);
}

#[test]
fn generate_never_replaces_the_buffer_of_its_gltf_input() {
    let dir = tempfile::tempdir().unwrap();
    let (gltf, bin) = gltf_scene(dir.path());
    let bytes = std::fs::read(&bin).unwrap();
    let mut targets = vec![bin.clone()];
    targets.extend(other_names(&bin, "x.wok", "h.wok"));
    for target in &targets {
        let what = format!("generate -o {}", target.display());
        let args: Args<'_> = vec![&"generate", &gltf, &"-o", target, &"--to", &"wok"];
        each_refused(&[(&what, args)], &bin, &bytes, &[]);
    }
    no_leftovers(dir.path());
}

#[test]
fn convert_never_replaces_the_buffer_of_its_gltf_input() {
    let dir = tempfile::tempdir().unwrap();
    let (gltf, bin) = gltf_scene(dir.path());
    let bytes = std::fs::read(&bin).unwrap();
    let mut targets = vec![bin.clone()];
    targets.extend(other_names(&bin, "x.wok", "h.wok"));
    for target in &targets {
        let what = format!("convert -> {}", target.display());
        let args: Args<'_> = vec![&"convert", &gltf, target, &"--to", &"wok"];
        each_refused(&[(&what, args)], &bin, &bytes, &[]);
    }
    let out = dir.path().join("out.wok");
    let depfile: Args<'_> = vec![&"convert", &gltf, &out, &"--depfile", &bin];
    each_refused(&[("convert --depfile", depfile)], &bin, &bytes, &[]);
    no_leftovers(dir.path());
}

#[test]
fn a_gltf_output_never_brings_a_sidecar_over_the_input_s_buffer() {
    let dir = tempfile::tempdir().unwrap();
    // `in.gltf` reads `shared.bin`; `shared.gltf` as output brings the sidecar `shared.bin`.
    let (input, shared) = gltf_with_buffer(dir.path(), "in", "shared.bin");
    let bytes = std::fs::read(&shared).unwrap();
    let out = dir.path().join("shared.gltf");
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let other_spelling = dir.path().join("sub/../shared.gltf");
    let cases: Vec<(&str, Args<'_>)> = vec![
        ("convert", vec![&"convert", &input, &out]),
        (
            "convert --force",
            vec![&"convert", &input, &out, &"--force"],
        ),
        (
            "convert --force, another spelling",
            vec![&"convert", &input, &other_spelling, &"--force"],
        ),
        (
            "convert --to gltf",
            vec![&"convert", &input, &out, &"--to", &"gltf", &"--force"],
        ),
        (
            "generate --force",
            vec![
                &"generate",
                &input,
                &"-o",
                &out,
                &"--engine",
                &"kotor",
                &"--force",
            ],
        ),
    ];
    // The sidecar is named, as the file the command read.
    each_refused(&cases, &shared, &bytes, &["shared.bin", "the sidecar of"]);
    // Nothing was written: not the main file either.
    assert!(!out.exists(), "{} was written", out.display());
    no_leftovers(dir.path());
    // An output whose sidecar is another file is written, buffer and all.
    let done = run(&[&"convert", &input, &dir.path().join("other.gltf")]);
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert!(dir.path().join("other.bin").is_file());
}

#[test]
fn view_diff_render_and_lint_never_replace_the_buffer_of_their_gltf_input() {
    let dir = tempfile::tempdir().unwrap();
    let (gltf, bin) = gltf_scene(dir.path());
    let bytes = std::fs::read(&bin).unwrap();
    let wok = dir.path().join("other.wok");
    let done = run(&[&"convert", &fixtures_dir().join("obj/flat_floor.obj"), &wok]);
    assert_eq!(done.code, 0, "{}", done.stderr);
    // Outputs whose format comes from the extension name the buffer through a link.
    let link = |name: &str| {
        let path = dir.path().join(name);
        std::os::unix::fs::symlink(&bin, &path).unwrap();
        path
    };
    let (as_png, as_svg, as_wok) = (link("picture.png"), link("overlay.svg"), link("fixed.wok"));
    let cases: Vec<(&str, Args<'_>)> = vec![
        ("view -o", vec![&"view", &gltf, &"-o", &bin]),
        ("view second -o", vec![&"view", &wok, &gltf, &"-o", &bin]),
        ("diff --html", vec![&"diff", &gltf, &wok, &"--html", &bin]),
        (
            "diff --overlay",
            vec![&"diff", &wok, &gltf, &"--overlay", &as_svg],
        ),
        ("render -o", vec![&"render", &gltf, &"-o", &as_png]),
        ("lint --fix", vec![&"lint", &gltf, &"--fix", &as_wok]),
    ];
    // `dump` opens no file beside the one named (the glTF dumper shows the document and a
    // .glb's own BIN chunk, not external buffers): `no_command_writes_over_its_input` in
    // cli_contract.rs covers `dump --extract -o`.
    each_refused(&cases, &bin, &bytes, &[]);
    no_leftovers(dir.path());
}

#[test]
fn a_batch_never_replaces_the_buffer_of_one_of_its_inputs() {
    let dir = tempfile::tempdir().unwrap();
    // `a.gltf`'s buffer is `a.wok`: the very file `--to wok` makes of it in its own folder.
    let (input, buffer) = gltf_with_buffer(dir.path(), "a", "a.wok");
    let bytes = std::fs::read(&buffer).unwrap();
    let out = tempfile::tempdir().unwrap();
    let (here, there) = (dir.path(), out.path());
    let cases: Vec<(&str, Args<'_>)> = vec![
        (
            "convert --out-dir",
            vec![
                &"convert",
                &input,
                &"--out-dir",
                &here,
                &"--to",
                &"wok",
                &"--jobs",
                &"2",
            ],
        ),
        // The report is written by the command's own thread after the workers read the
        // inputs: a buffer a worker read is refused there too.
        (
            "convert --out-dir --report",
            vec![
                &"convert",
                &input,
                &"--out-dir",
                &there,
                &"--to",
                &"obj",
                &"--jobs",
                &"2",
                &"--report",
                &buffer,
            ],
        ),
    ];
    each_refused(&cases, &buffer, &bytes, &[]);
    no_leftovers(dir.path());
}

/// `rooms/room_a.wok` and `rooms/area.lyt` placing it at the origin.
fn area(dir: &Path) -> PathBuf {
    let rooms = dir.join("rooms");
    std::fs::create_dir(&rooms).unwrap();
    let done = run(&[
        &"convert",
        &fixtures_dir().join("obj/flat_floor.obj"),
        &rooms.join("room_a.wok"),
    ]);
    assert_eq!(done.code, 0, "{}", done.stderr);
    std::fs::write(
        rooms.join("area.lyt"),
        "beginlayout\nroomcount 1\n  room_a 0 0 0\ntrackcount 0\nobstaclecount 0\n\
         doorhookcount 0\ndonelayout\n",
    )
    .unwrap();
    rooms
}

#[test]
fn area_split_never_replaces_the_buffer_of_its_gltf_input() {
    let dir = tempfile::tempdir().unwrap();
    let rooms = area(dir.path());
    let gltf = dir.path().join("area.gltf");
    let done = run(&[&"area", &"assemble", &rooms, &gltf]);
    assert_eq!(done.code, 0, "{}", done.stderr);
    let bin = dir.path().join("area.bin");
    let bytes = std::fs::read(&bin).unwrap();
    let lyt = rooms.join("area.lyt");
    // The room's WOK is a link to the buffer.
    let out = dir.path().join("split");
    std::fs::create_dir(&out).unwrap();
    std::os::unix::fs::symlink(&bin, out.join("room_a.wok")).unwrap();
    let elsewhere = dir.path().join("elsewhere");
    let cases: Vec<(&str, Args<'_>)> = vec![
        (
            "area split",
            vec![&"area", &"split", &gltf, &out, &"--lyt", &lyt],
        ),
        (
            "area split --depfile",
            vec![
                &"area",
                &"split",
                &gltf,
                &elsewhere,
                &"--lyt",
                &lyt,
                &"--depfile",
                &bin,
            ],
        ),
    ];
    each_refused(&cases, &bin, &bytes, &[]);
    no_leftovers(dir.path());
}

#[test]
fn area_indoor_never_replaces_a_kit_walkmesh_it_read() {
    let dir = tempfile::tempdir().unwrap();
    let kits = dir.path().join("kits");
    let kit = kits.join("k");
    std::fs::create_dir_all(&kit).unwrap();
    // The component is named as the room the map's first room becomes (`m_room0`), so the
    // build writes its room into the kit's folder over the walkmesh it read.
    std::fs::write(
        kits.join("k.json"),
        r#"{"name": "k", "id": "k", "components": [{"name": "m_room0", "id": "m_room0"}]}"#,
    )
    .unwrap();
    let kit_wok = kit.join("m_room0.wok");
    let done = run(&[
        &"convert",
        &fixtures_dir().join("obj/flat_floor.obj"),
        &kit_wok,
    ]);
    assert_eq!(done.code, 0, "{}", done.stderr);
    let bytes = std::fs::read(&kit_wok).unwrap();
    let map = dir.path().join("m.indoor");
    std::fs::write(
        &map,
        r#"{"module_id": "m", "rooms": [{"kit": "k", "component": "m_room0", "position": [5, 0, 0]}]}"#,
    )
    .unwrap();
    let indoor: Args<'_> = vec![&"area", &"indoor", &map, &kit, &"--kits", &kits];
    each_refused(&[("area indoor", indoor)], &kit_wok, &bytes, &[]);
    no_leftovers(&kit);
    // Into another folder it builds.
    let done = run(&[
        &"area",
        &"indoor",
        &map,
        &dir.path().join("out"),
        &"--kits",
        &kits,
    ]);
    assert_eq!(done.code, 0, "{}{}", done.stdout, done.stderr);
}
