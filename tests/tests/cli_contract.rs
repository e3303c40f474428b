#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! What every command promises (README "The command line's contract"): `--json` is JSON
//! whatever the names in the files, `-` is standard output (or refused), an output never
//! replaces an input, hints name options the command has, negative numbers are values,
//! options a command would ignore are refused, and a failed write to standard output exits
//! 3 naming it.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

use walkmesh_kotor_area::erf::{Archive, ArchiveKind};
use walkmesh_tests::{CliRun, fixtures_dir, walkmesh};

/// Right-to-left override, next line, escape, quote, backslash and a text that looks like
/// the terminal escaper's own output.
const HOSTILE: &str = "h\u{202e}x\u{85}y\"q\\b\u{1b}[31m\\u{202e}\u{7f}";
/// A room name that can be a file name (no control characters, no separators).
const HOSTILE_ROOM: &str = "r\u{202e}\"q\\";

fn os(path: &Path) -> OsString {
    path.as_os_str().to_owned()
}

fn run<const N: usize>(args: [&dyn AsRef<std::ffi::OsStr>; N]) -> CliRun {
    walkmesh(args.map(|a| a.as_ref().to_owned()))
}

/// Files every test shares: a floor as OBJ and WOK, a room WOK of the same floor in a
/// KotOR area folder with its layout, and a module archive.
struct Fixture {
    _dir: tempfile::TempDir,
    dir: PathBuf,
    obj: PathBuf,
    wok: PathBuf,
    area: PathBuf,
    module: PathBuf,
}

fn fixture() -> Fixture {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let source = std::fs::read_to_string(fixtures_dir().join("obj/flat_floor.obj")).unwrap();
    // The material and the file names are hostile.
    let obj = dir.join(format!("{HOSTILE}.obj"));
    std::fs::write(
        &obj,
        source.replace("usemtl Stone", &format!("usemtl {HOSTILE}")),
    )
    .unwrap();
    let wok = dir.join(format!("{HOSTILE}.wok"));
    let done = run([&"convert", &fixtures_dir().join("obj/flat_floor.obj"), &wok]);
    assert_eq!(done.code, 0, "{}", done.stderr);
    let area = dir.join(format!("area{HOSTILE_ROOM}"));
    std::fs::create_dir(&area).unwrap();
    std::fs::copy(&wok, area.join(format!("{HOSTILE_ROOM}.wok"))).unwrap();
    std::fs::write(
        area.join("area.lyt"),
        format!(
            "beginlayout\nroomcount 1\n  {HOSTILE_ROOM} 0 0 0\ntrackcount 0\nobstaclecount 0\n\
             doorhookcount 0\ndonelayout\n"
        ),
    )
    .unwrap();
    let mut archive = Archive::new(ArchiveKind::Erf(*b"MOD "));
    archive
        .put("a\"\\\u{1b}b.wok", std::fs::read(&wok).unwrap())
        .unwrap();
    let module = dir.join(format!("{HOSTILE}.mod"));
    std::fs::write(&module, archive.write().unwrap()).unwrap();
    Fixture {
        _dir: tmp,
        dir,
        obj,
        wok,
        area,
        module,
    }
}

fn strings(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                out.push(k.clone());
                strings(v, out);
            }
        }
        _ => {}
    }
}

/// Standard output parses as JSON (one value, or one per line for `--report -`), holds no
/// terminal escape and no raw character a terminal acts on; returns every string in it.
fn parse_json(what: &str, text: &str, lines: bool) -> Vec<String> {
    // The terminal escaper's forms of characters the names hold (a JSON parser would
    // read them back as other names).
    for escaped in ["\\u{202e}x", "\\x1b[31m", "\\u{0085}y"] {
        assert!(
            !text.contains(escaped),
            "{what}: terminal escaping in JSON:\n{text}"
        );
    }
    for c in ['\u{202e}', '\u{85}', '\u{1b}', '\u{7f}'] {
        assert!(!text.contains(c), "{what}: raw {c:?} in JSON");
    }
    let values: Vec<serde_json::Value> = if lines {
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    } else {
        vec![
            serde_json::from_str(text)
                .unwrap_or_else(|e| panic!("{what}: not JSON ({e}):\n{text}")),
        ]
    };
    let mut found = Vec::new();
    values.iter().for_each(|v| strings(v, &mut found));
    found
}

/// Item 6: every `--json` output of every command, on hostile names, is JSON a parser reads
/// back to the names the files hold.
#[test]
fn every_json_output_parses_and_keeps_hostile_names() {
    let f = fixture();
    let out = f.dir.join("out.glb");
    let batch = f.dir.join("batch");
    let wok = || os(&f.wok);
    let cases: Vec<(&str, Vec<OsString>, Option<&str>)> = vec![
        ("formats", vec!["formats".into(), "--json".into()], None),
        (
            "info",
            vec!["info".into(), os(&f.obj), "--json".into()],
            None,
        ),
        (
            "info archive",
            vec!["info".into(), os(&f.module), "--json".into()],
            Some("a\"\\\u{1b}b.wok"),
        ),
        (
            "validate",
            vec!["validate".into(), os(&f.obj), "--json".into()],
            Some(HOSTILE),
        ),
        (
            "convert",
            vec!["convert".into(), os(&f.obj), os(&out), "--json".into()],
            Some(HOSTILE),
        ),
        (
            "convert batch",
            vec![
                "convert".into(),
                os(&f.obj),
                "--out-dir".into(),
                os(&batch),
                "--to".into(),
                "wok".into(),
                "--json".into(),
                "--create-dirs".into(),
            ],
            None,
        ),
        (
            "dump",
            vec!["dump".into(), wok(), "--format".into(), "json".into()],
            None,
        ),
        (
            "dump obj",
            vec!["dump".into(), os(&f.obj), "--format".into(), "json".into()],
            None,
        ),
        (
            "diff",
            vec!["diff".into(), os(&f.obj), wok(), "--json".into()],
            None,
        ),
        (
            "diff --reach",
            vec![
                "diff".into(),
                os(&f.obj),
                wok(),
                "--json".into(),
                "--reach".into(),
                "--reach-pairs".into(),
                "5".into(),
            ],
            None,
        ),
        (
            "diff --fields",
            vec![
                "diff".into(),
                wok(),
                os(&f.area.join(format!("{HOSTILE_ROOM}.wok"))),
                "--fields".into(),
                "--json".into(),
            ],
            None,
        ),
        (
            "stats",
            vec!["stats".into(), os(&f.dir), "--json".into()],
            Some(HOSTILE),
        ),
        (
            "lint",
            vec!["lint".into(), os(&f.obj), "--json".into()],
            Some(HOSTILE),
        ),
        (
            "lint area",
            vec!["lint".into(), os(&f.area), "--json".into()],
            Some(HOSTILE_ROOM),
        ),
        (
            "route",
            vec![
                "route".into(),
                wok(),
                "--from".into(),
                "0.5,0.5,0".into(),
                "--to".into(),
                "3.5,2.5,0".into(),
                "--json".into(),
            ],
            None,
        ),
        ("reach", vec!["reach".into(), wok(), "--json".into()], None),
        (
            "reach area",
            vec!["reach".into(), os(&f.area), "--json".into()],
            None,
        ),
        (
            "area list",
            vec!["area".into(), "list".into(), os(&f.module), "--json".into()],
            Some("a\"\\\u{1b}b.wok"),
        ),
        (
            "area check",
            vec![
                "area".into(),
                "check".into(),
                os(&f.area.join("area.lyt")),
                "--json".into(),
            ],
            None,
        ),
        (
            "area solve",
            vec![
                "area".into(),
                "solve".into(),
                os(&f.area),
                "--check".into(),
                "--json".into(),
            ],
            None,
        ),
        (
            "area list error",
            vec![
                "area".into(),
                "list".into(),
                os(&f.dir.join(format!("{HOSTILE}.missing.mod"))),
                "--json".into(),
            ],
            Some(HOSTILE),
        ),
        // A failure in JSON mode: the error object names the hostile file.
        (
            "error",
            vec![
                "info".into(),
                os(&f.dir.join(format!("{HOSTILE}.missing"))),
                "--json".into(),
            ],
            Some(HOSTILE),
        ),
    ];
    for (what, args, expect) in cases {
        let done = walkmesh(args);
        assert!(done.code <= 2, "{what}: {}", done.stderr);
        let found = parse_json(what, &done.stdout, false);
        if let Some(name) = expect {
            assert!(
                found.iter().any(|s| s.contains(name)),
                "{what}: {name:?} not in {found:?}"
            );
        }
    }
    // --report - prints JSON lines.
    let done = run([
        &"convert",
        &f.obj,
        &"--out-dir",
        &batch,
        &"--to",
        &"glb",
        &"--report",
        &"-",
    ]);
    assert_eq!(done.code, 0, "{}", done.stderr);
    let report: String = done
        .stdout
        .lines()
        .filter(|l| l.starts_with('{'))
        .collect::<Vec<_>>()
        .join("\n");
    let found = parse_json("--report -", &report, true);
    assert!(found.iter().any(|s| s.contains(HOSTILE)), "{found:?}");
}

/// Item 7: `-` is standard output for every output that can be one, refused (exit 2, no
/// file named `-`) for the others; the command's own report then goes to standard error.
#[test]
fn dash_is_standard_output_or_refused_in_every_command() {
    let f = fixture();
    let wok = f.wok.as_path();
    let second = f.dir.join("second.wok");
    std::fs::copy(wok, &second).unwrap();
    let stdout_cases: Vec<(&str, CliRun, &str)> = vec![
        ("view", run([&"view", &wok, &"-o", &"-"]), "<!DOCTYPE html"),
        ("render", run([&"render", &wok, &"-o", &"-"]), "<svg"),
        (
            "diff --html",
            run([&"diff", &wok, &second, &"--html", &"-"]),
            "<!DOCTYPE html",
        ),
        (
            "diff --overlay",
            run([&"diff", &wok, &second, &"--overlay", &"-"]),
            "<svg",
        ),
        (
            "dump --extract",
            run([&"dump", &wok, &"--extract", &"header", &"-o", &"-"]),
            "BWM V1.0",
        ),
        (
            "convert",
            run([&"convert", &wok, &"-", &"--to", &"wok"]),
            "BWM V1.0",
        ),
        (
            "area replace",
            run([&"area", &"replace", &f.module, &"-", &second]),
            "MOD V1.0",
        ),
    ];
    for (what, done, start) in stdout_cases {
        assert_eq!(done.code, 0, "{what}: {}", done.stderr);
        assert!(
            done.stdout.starts_with(start),
            "{what}: {:?}",
            &done.stdout.get(..40)
        );
        assert!(
            !done.stderr.is_empty(),
            "{what}: its report should be on standard error"
        );
    }
    let lyt = f.area.join("area.lyt");
    let refused: Vec<(&str, CliRun)> = vec![
        ("lint --fix", run([&"lint", &wok, &"--fix", &"-"])),
        (
            "convert --depfile",
            run([&"convert", &wok, &f.dir.join("x.wok"), &"--depfile", &"-"]),
        ),
        (
            "convert --out-dir",
            run([&"convert", &wok, &"--out-dir", &"-", &"--to", &"glb"]),
        ),
        (
            "area extract",
            run([&"area", &"extract", &f.module, &"-o", &"-"]),
        ),
        (
            "area solve",
            run([&"area", &"solve", &f.area, &"--out", &"-"]),
        ),
        ("area assemble", run([&"area", &"assemble", &f.area, &"-"])),
        (
            "area assemble --depfile",
            run([
                &"area",
                &"assemble",
                &f.area,
                &f.dir.join("a.glb"),
                &"--depfile",
                &"-",
            ]),
        ),
        (
            "area split",
            run([&"area", &"split", &f.obj, &"-", &"--lyt", &lyt]),
        ),
        (
            "area indoor",
            run([&"area", &"indoor", &f.obj, &"-", &"--kits", &f.dir]),
        ),
        (
            "two outputs",
            run([&"diff", &wok, &second, &"--html", &"-", &"--overlay", &"-"]),
        ),
        (
            "with --json",
            run([&"diff", &wok, &second, &"--html", &"-", &"--json"]),
        ),
    ];
    for (what, done) in refused {
        assert_eq!(done.code, 2, "{what}: {}", done.stderr);
        assert!(done.stderr.contains("`-`"), "{what}: {}", done.stderr);
        assert!(
            done.stdout.is_empty() || done.stdout.starts_with('{'),
            "{what}: {}",
            done.stdout
        );
    }
    assert!(!Path::new("-").exists(), "a file named - was written");
    // Every output option says in its --help what `-` means there.
    for (command, option) in [
        (vec!["view"], "--output"),
        (vec!["render"], "--output"),
        (vec!["diff"], "--html"),
        (vec!["diff"], "--overlay"),
        (vec!["dump"], "--output"),
        (vec!["lint"], "--fix"),
        (vec!["convert"], "--depfile"),
        (vec!["area", "extract"], "--out"),
    ] {
        let mut args: Vec<OsString> = command.iter().map(OsString::from).collect();
        args.push("--help".into());
        let help = walkmesh(args).stdout;
        let options = help.find("Options:").unwrap();
        let at = options
            + help[options..]
                .find(&format!("{option} <"))
                .unwrap_or_else(|| panic!("{command:?} {option}"));
        let entry = &help[at..help[at..].find("\n  -").map_or(help.len(), |n| at + n)];
        assert!(entry.contains("`-`"), "{command:?} {option}: {entry}");
    }
}

/// Item 8: an output naming an input, by any spelling, is refused (exit 3) and the input
/// keeps its bytes, in every command that writes.
#[test]
fn no_command_writes_over_its_input() {
    let f = fixture();
    let wok = f.dir.join("room.wok");
    std::fs::copy(&f.wok, &wok).unwrap();
    let before = std::fs::read(&wok).unwrap();
    let link = f.dir.join("link.wok");
    std::os::unix::fs::symlink(&wok, &link).unwrap();
    let hard = f.dir.join("hard.wok");
    std::fs::hard_link(&wok, &hard).unwrap();
    let sub = f.dir.join("sub");
    std::fs::create_dir(&sub).unwrap();
    let other_spelling = sub.join("../room.wok");
    let module = &f.module;
    let module_bytes = std::fs::read(module).unwrap();
    let materials = f.dir.join("m.ron");
    let kotor = run([&"profiles", &"kotor"]);
    std::fs::write(&materials, kotor.stdout).unwrap();
    for target in [&wok, &link, &hard, &other_spelling] {
        let cases: Vec<(&str, CliRun)> = vec![
            ("convert", run([&"convert", &wok, target])),
            (
                "convert --depfile",
                run([&"convert", &wok, &f.dir.join("o.glb"), &"--depfile", target]),
            ),
            (
                "convert --materials",
                run([
                    &"convert",
                    &f.obj,
                    &f.dir.join("o2.wok"),
                    &"--materials",
                    &materials,
                    &"--depfile",
                    &materials,
                ]),
            ),
            ("view", run([&"view", &wok, &"-o", target])),
            ("view second", run([&"view", &f.wok, &wok, &"-o", target])),
            ("render", run([&"render", &wok, &"-o", target])),
            (
                "diff --html",
                run([&"diff", &f.wok, &wok, &"--html", target]),
            ),
            (
                "diff --overlay",
                run([&"diff", &wok, &f.wok, &"--overlay", target]),
            ),
            (
                "dump --extract",
                run([&"dump", &wok, &"--extract", &"header", &"-o", target]),
            ),
            ("lint --fix", run([&"lint", &wok, &"--fix", target])),
        ];
        for (what, done) in cases {
            assert_eq!(
                done.code,
                3,
                "{what} -> {}: {}",
                target.display(),
                done.stderr
            );
            assert!(
                done.stderr.contains("never writes over what it reads"),
                "{what}: {}",
                done.stderr
            );
        }
        assert_eq!(std::fs::read(&wok).unwrap(), before);
    }
    let replaced = run([&"area", &"replace", module, module, &f.wok]);
    assert_eq!(replaced.code, 3, "{}", replaced.stderr);
    let member = PathBuf::from(format!("{}:a\"\\\u{1b}b.wok", module.display()));
    let from_member = run([&"convert", &member, module]);
    assert_eq!(from_member.code, 3, "{}", from_member.stderr);
    assert_eq!(std::fs::read(module).unwrap(), module_bytes);
    let lyt = f.area.join("area.lyt");
    let lyt_bytes = std::fs::read(&lyt).unwrap();
    let cases: Vec<(&str, CliRun)> = vec![
        (
            "area assemble",
            run([&"area", &"assemble", &f.area, &lyt, &"--lyt", &lyt]),
        ),
        (
            "area assemble --depfile",
            run([
                &"area",
                &"assemble",
                &f.area,
                &f.dir.join("a.glb"),
                &"--depfile",
                &lyt,
            ]),
        ),
        (
            "area solve --out",
            run([&"area", &"solve", &f.area, &"--out", &f.area]),
        ),
        (
            "area split",
            run([
                &"area",
                &"split",
                &f.obj,
                &f.area.join("."),
                &"--lyt",
                &f.area
                    .join("../")
                    .join(f.area.file_name().unwrap())
                    .join("area.lyt"),
                &"--depfile",
                &lyt,
            ]),
        ),
        (
            "lint --fix area",
            run([&"lint", &f.area, &"--fix", &f.area]),
        ),
        (
            "convert --out-dir",
            run([&"convert", &f.area, &"--out-dir", &f.area, &"--to", &"wok"]),
        ),
    ];
    for (what, done) in cases {
        assert_eq!(done.code, 3, "{what}: {}", done.stderr);
        assert!(
            done.stderr.contains("never writes over what it reads"),
            "{what}: {}",
            done.stderr
        );
    }
    assert_eq!(std::fs::read(&lyt).unwrap(), lyt_bytes);
    // A batch whose output folder holds an input: that file is refused, as a failed file.
    let obj_dir = f.dir.join("objs");
    std::fs::create_dir(&obj_dir).unwrap();
    let obj = obj_dir.join("floor.obj");
    std::fs::copy(fixtures_dir().join("obj/flat_floor.obj"), &obj).unwrap();
    let obj_bytes = std::fs::read(&obj).unwrap();
    let done = run([&"convert", &obj, &"--out-dir", &obj_dir, &"--to", &"obj"]);
    assert_eq!(done.code, 3, "{}", done.stderr);
    assert!(
        done.stderr.contains("never writes over what it reads"),
        "{}",
        done.stderr
    );
    assert_eq!(std::fs::read(&obj).unwrap(), obj_bytes);
}

/// The `--long` options in a text.
fn options_named(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices("--") {
        let before = text[..at].chars().last();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '-') {
            continue;
        }
        let name: String = text[at + 2..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        if name.starts_with(|c: char| c.is_ascii_lowercase()) {
            found.push(format!("--{name}"));
        }
    }
    found
}

/// Every option `message` names is in `command --help`.
fn assert_hints_exist(command: &[&str], message: &str) {
    let mut args: Vec<OsString> = command.iter().map(OsString::from).collect();
    args.push("--help".into());
    let help = walkmesh(args).stdout;
    for option in options_named(message) {
        assert!(
            help.contains(&format!("{option} "))
                || help.contains(&format!("{option}\n"))
                || help.contains(&format!("{option} <")),
            "{command:?} names {option}, which it does not accept: {message}"
        );
    }
}

/// Item 9: the hints of every command name its own options; commands without
/// --create-dirs do not suggest it, route and reach name --format.
#[test]
fn hints_name_options_the_command_accepts() {
    let f = fixture();
    let wok = f.wok.as_path();
    let missing = f.dir.join("no/such/dir");
    let undetected = f.dir.join("mystery.bin");
    std::fs::write(&undetected, b"nothing known").unwrap();
    let cases: Vec<(Vec<&str>, CliRun, &str)> = vec![
        (
            vec!["convert"],
            run([&"convert", &wok, &missing.join("x.glb")]),
            "--create-dirs",
        ),
        (
            vec!["view"],
            run([&"view", &wok, &"-o", &missing.join("x.html")]),
            "create it",
        ),
        (
            vec!["render"],
            run([&"render", &wok, &"-o", &missing.join("x.svg")]),
            "create it",
        ),
        (
            vec!["diff"],
            run([&"diff", &wok, &wok, &"--html", &missing.join("x.html")]),
            "create it",
        ),
        (
            vec!["diff"],
            run([&"diff", &wok, &wok, &"--overlay", &missing.join("x.svg")]),
            "create it",
        ),
        (
            vec!["lint"],
            run([&"lint", &wok, &"--fix", &missing.join("x.wok")]),
            "create it",
        ),
        (
            vec!["dump"],
            run([
                &"dump",
                &wok,
                &"--extract",
                &"header",
                &"-o",
                &missing.join("x.bin"),
            ]),
            "create it",
        ),
        (
            vec!["area", "replace"],
            run([&"area", &"replace", &f.module, &missing.join("x.mod")]),
            "create it",
        ),
        (
            vec!["area", "assemble"],
            run([&"area", &"assemble", &f.area, &missing.join("x.glb")]),
            "create it",
        ),
        (
            vec!["route"],
            run([
                &"route",
                &undetected,
                &"--from",
                &"0,0,0",
                &"--to",
                &"1,1,0",
            ]),
            "--format",
        ),
        (vec!["reach"], run([&"reach", &undetected]), "--format"),
        (vec!["info"], run([&"info", &undetected]), "--from"),
        (
            vec!["lint"],
            run([&"lint", &undetected]),
            "cannot tell the format",
        ),
        (
            vec!["render"],
            run([&"render", &wok, &undetected, &"-o", &f.dir.join("x.svg")]),
            "--from",
        ),
        (
            vec!["area", "assemble"],
            run([&"area", &"assemble", &f.area, &f.dir.join("x.xyz")]),
            "no format writes",
        ),
    ];
    for (command, done, expect) in cases {
        assert!(done.code >= 2, "{command:?}: {}", done.stderr);
        assert!(done.stderr.contains(expect), "{command:?}: {}", done.stderr);
        assert_hints_exist(&command, &done.stderr);
    }
}

/// Item 10: a leading minus is a value in every coordinate and number option.
#[test]
fn negative_numbers_are_values() {
    let f = fixture();
    let moved = f.dir.join("moved.wok");
    // Space-separated, as people type it.
    let done = run([&"convert", &f.wok, &moved, &"--translate", &"-10,-10.5,-0"]);
    assert_eq!(done.code, 0, "{}", done.stderr);
    let route = run([
        &"route",
        &moved,
        &"--from",
        &"-9.5,-10,0",
        &"--to",
        &"-6.5,-8,0",
        &"--json",
    ]);
    assert_eq!(route.code, 0, "{}", route.stderr);
    let value: serde_json::Value = serde_json::from_str(&route.stdout).unwrap();
    assert_eq!(value["reachable"], true);
    let reach = run([&"reach", &moved, &"--from", &"-9.5,-10,0", &"--require-all"]);
    assert_eq!(reach.code, 0, "{}", reach.stderr);
    let back = run([&"diff", &f.wok, &moved, &"--align", &"--json"]);
    assert!(back.code <= 1, "{}", back.stderr);
    // Negative where a number must not be negative: the option's own message, not
    // "unexpected argument".
    for (what, done) in [
        (
            "diff --tolerance",
            run([&"diff", &f.wok, &moved, &"--tolerance", &"-1"]),
        ),
        (
            "render --width",
            run([
                &"render",
                &f.wok,
                &"-o",
                &f.dir.join("x.svg"),
                &"--width",
                &"-5",
            ]),
        ),
        (
            "convert --weld",
            run([&"convert", &f.obj, &f.dir.join("y.wok"), &"--weld", &"-0.5"]),
        ),
        (
            "lint --character-width",
            run([&"lint", &f.wok, &"--character-width", &"-1"]),
        ),
        (
            "area solve --tolerance",
            run([
                &"area",
                &"solve",
                &f.area,
                &"--check",
                &"--tolerance",
                &"-0.1",
            ]),
        ),
        (
            "route --to",
            run([
                &"route",
                &moved,
                &"--from",
                &"-9.5,-10,0",
                &"--to",
                &"-1e999,0,0",
            ]),
        ),
    ] {
        assert!(
            !done.stderr.contains("unexpected argument"),
            "{what}: {}",
            done.stderr
        );
        assert!(done.code == 2 || done.code == 1, "{what}: {}", done.stderr);
    }
}

/// Item 11: combinations a command would not honour are refused (exit 2), not dropped.
#[test]
fn ignored_option_combinations_are_refused() {
    let f = fixture();
    let wok = f.wok.as_path();
    let cases: Vec<(&str, CliRun)> = vec![
        (
            "diff --fields --reach",
            run([&"diff", &wok, &wok, &"--fields", &"--reach"]),
        ),
        (
            "diff --fields --reach-pairs",
            run([&"diff", &wok, &wok, &"--fields", &"--reach-pairs", &"5"]),
        ),
        (
            "diff --fields --tolerance",
            run([&"diff", &wok, &wok, &"--fields", &"--tolerance", &"1"]),
        ),
        (
            "diff --fields --width",
            run([&"diff", &wok, &wok, &"--fields", &"--width", &"400"]),
        ),
        (
            "diff --reach-pairs alone",
            run([&"diff", &wok, &wok, &"--reach-pairs", &"5"]),
        ),
        (
            "diff --field-limit alone",
            run([&"diff", &wok, &wok, &"--field-limit", &"5"]),
        ),
        (
            "diff --width without --overlay",
            run([&"diff", &wok, &wok, &"--width", &"400"]),
        ),
        (
            "diff --align --reach",
            run([&"diff", &wok, &wok, &"--align", &"--reach"]),
        ),
        (
            "convert --json --quiet (one file)",
            run([
                &"convert",
                &wok,
                &f.dir.join("q.obj"),
                &"--json",
                &"--quiet",
            ]),
        ),
        (
            "validate --json --max-per-code",
            run([&"validate", &wok, &"--json", &"--max-per-code", &"3"]),
        ),
        (
            "lint --json --max-per-code",
            run([&"lint", &wok, &"--json", &"--max-per-code", &"3"]),
        ),
        (
            "dump --extract --format",
            run([
                &"dump",
                &wok,
                &"--extract",
                &"header",
                &"-o",
                &f.dir.join("h.bin"),
                &"--format",
                &"json",
            ]),
        ),
        (
            "area solve --check --out",
            run([
                &"area",
                &"solve",
                &f.area,
                &"--check",
                &"--out",
                &f.dir.join("o"),
            ]),
        ),
        (
            "route area --format",
            run([
                &"route",
                &f.area,
                &"--from",
                &"0,0,0",
                &"--to",
                &"1,1,0",
                &"--format",
                &"bwm",
            ]),
        ),
        ("reach area --up", run([&"reach", &f.area, &"--up", &"z"])),
        (
            "render --max-memory with SVG",
            run([
                &"render",
                &wok,
                &"-o",
                &f.dir.join("m.svg"),
                &"--max-memory",
                &"64",
            ]),
        ),
        (
            "render --mode components of two files",
            run([
                &"render",
                &wok,
                &wok,
                &"-o",
                &f.dir.join("m2.svg"),
                &"--mode",
                &"components",
            ]),
        ),
        (
            "info of an archive with --from",
            run([&"info", &f.module, &"--from", &"bwm"]),
        ),
        (
            "convert --jobs without --out-dir",
            run([&"convert", &wok, &f.dir.join("j.glb"), &"--jobs", &"2"]),
        ),
    ];
    for (what, done) in cases {
        assert_eq!(done.code, 2, "{what}: {}", done.stderr);
    }
    assert!(!f.dir.join("h.bin").exists());
}

/// A standard output that is always full.
struct Full;

impl Write for Full {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::Error::from_raw_os_error(28))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Err(std::io::Error::from_raw_os_error(28))
    }
}

fn on_full_stdout(args: &[&dyn AsRef<std::ffi::OsStr>]) -> (i32, String) {
    let mut argv: Vec<OsString> = vec!["walkmesh".into()];
    argv.extend(args.iter().map(|a| a.as_ref().to_owned()));
    let mut err = Vec::new();
    let code = walkmesh_cli::run(argv, &mut Full, &mut err);
    (code, String::from_utf8_lossy(&err).into_owned())
}

/// Item 12: every command whose standard output cannot be written exits 3 naming it.
#[test]
fn a_full_standard_output_exits_3_naming_it_in_every_command() {
    let f = fixture();
    let wok = f.wok.as_path();
    let lyt = f.area.join("area.lyt");
    let (c_glb, v_html) = (f.dir.join("c.glb"), f.dir.join("v.html"));
    let cases: Vec<(&str, Vec<&dyn AsRef<std::ffi::OsStr>>)> = vec![
        ("spec", vec![&"spec", &"bwm"]),
        ("formats", vec![&"formats"]),
        ("formats --json", vec![&"formats", &"--json"]),
        ("profiles", vec![&"profiles", &"kotor"]),
        ("info", vec![&"info", &wok]),
        ("info --json", vec![&"info", &wok, &"--json"]),
        ("validate", vec![&"validate", &wok]),
        ("dump", vec![&"dump", &wok]),
        ("dump flat", vec![&"dump", &wok, &"--format", &"flat"]),
        (
            "dump --extract -",
            vec![&"dump", &wok, &"--extract", &"header", &"-o", &"-"],
        ),
        ("stats", vec![&"stats", &wok]),
        ("diff", vec![&"diff", &wok, &wok]),
        ("diff --fields", vec![&"diff", &wok, &wok, &"--fields"]),
        ("diff --html -", vec![&"diff", &wok, &wok, &"--html", &"-"]),
        ("lint", vec![&"lint", &wok]),
        ("lint --json", vec![&"lint", &wok, &"--json"]),
        (
            "route",
            vec![
                &"route",
                &wok,
                &"--from",
                &"0.5,0.5,0",
                &"--to",
                &"3.5,2.5,0",
            ],
        ),
        ("reach", vec![&"reach", &wok]),
        ("convert", vec![&"convert", &wok, &c_glb]),
        ("convert -", vec![&"convert", &wok, &"-", &"--to", &"glb"]),
        ("view -o -", vec![&"view", &wok, &"-o", &"-"]),
        ("view", vec![&"view", &wok, &"-o", &v_html]),
        ("render -o -", vec![&"render", &wok, &"-o", &"-"]),
        ("area list", vec![&"area", &"list", &f.module]),
        ("area check", vec![&"area", &"check", &lyt]),
        (
            "area solve --check",
            vec![&"area", &"solve", &f.area, &"--check"],
        ),
        ("--help", vec![&"info", &"--help"]),
    ];
    for (what, args) in cases {
        let (code, stderr) = on_full_stdout(&args);
        assert_eq!(code, 3, "{what}: {stderr}");
        assert!(stderr.contains("standard output"), "{what}: {stderr}");
    }
}
