//! `walkmesh lint`: the defects players report (walkmesh-lint's checks) on a file or a KotOR
//! area, and `--fix OUT` for the mechanical ones. The checks and repairs live in the
//! `walkmesh-lint` crate, which findings a run reports and fails on (level, rules, baseline) in
//! `walkmesh_pipeline::lint_rules`; this module reads, prints and writes.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use walkmesh_core::{Diagnostics, NavMesh, Registry, Severity};
use walkmesh_lint::{Engine, Finding, Level, LintOptions, Repair};
use walkmesh_pipeline::lint_rules::{Selection, Shown, judge, write_repaired};
use walkmesh_pipeline::policy;

use crate::areas::{load_rooms, open_rooms, room_layout};
use crate::input::{ReadArgs, load, read_options};
use walkmesh_pipeline::failure::Failure;

pub(crate) mod area;
mod model;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A walkmesh file, or a KotOR area: a folder or module archive (.mod/.erf/.rim) holding
    /// the room WOKs and the layout.
    target: PathBuf,
    /// The area's layout (default: the one .lyt in TARGET); makes TARGET an area.
    #[arg(long, value_name = "LYT")]
    lyt: Option<PathBuf>,
    #[command(flatten)]
    read: ReadArgs,
    /// Print {"findings": [{"code", "severity", "faces", "at", "message", "fixable"}], …}.
    #[arg(long)]
    pub json: bool,
    /// Repair what is mechanical (open and height seams, T-junctions, degenerate and
    /// duplicate faces, downward faces) and write the result to OUT (format from its
    /// extension), checked by our validator like every written file. For an area, OUT is a
    /// folder: every room read is written there as <room>.wok (unchanged rooms byte for byte).
    #[arg(long, value_name = "OUT")]
    fix: Option<PathBuf>,
    /// Accept findings of CODE (`*` matches any run: --allow 'lint.island') or of a group
    /// (lint::default, lint::pedantic). Rules may also come from walkmesh.toml's [warnings],
    /// as for convert.
    #[arg(long, value_name = "CODE")]
    allow: Vec<String>,
    /// Fail on findings of CODE or group even where an allow rule matches; naming a pedantic
    /// code (without `*`) or lint::pedantic also reports those findings at the default level.
    #[arg(long, value_name = "CODE")]
    deny: Vec<String>,
    /// Which groups to report: default (rare on shipped content, each worth a patch) or
    /// pedantic (also what shipped content holds and its engine lives with; docs/lint.md).
    /// Default: walkmesh.toml's [lint] level, else default.
    #[arg(long, value_name = "LEVEL", value_parser = parse_level)]
    level: Option<Level>,
    /// An earlier `walkmesh lint --json` output: report only findings not in it (matched by
    /// code and faces, or code and position), and exit 0 when none of those fails.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Whose walking rules decide steepness: kotor, nwn2, prime or generic (default: from the
    /// format; every engine's limit is 60°, see docs/lint.md).
    #[arg(long, value_name = "ENGINE", value_parser = parse_engine)]
    engine: Option<Engine>,
    /// Walkable strips narrower than this are lint.narrow_passage (default 0.5, an assumed
    /// human-sized creature; 0 turns the check off).
    #[arg(long, value_name = "WIDTH", default_value_t = 0.5,
          value_parser = crate::input::non_negative_distance)]
    character_width: f32,
    /// Compare the walkmesh with this render geometry (a KotOR .mdl, OBJ, glTF…; repeatable:
    /// one scene), as `generate` would see it (same preset and agent options): walking on
    /// air, floating or sinking surface, walkable area in solids, edges through walls,
    /// floor left out (model.* codes, docs/lint.md). The model is placed where the walkmesh
    /// fits it (a KotOR WOK is stored at its layout position).
    #[arg(long, value_name = "MODEL", conflicts_with = "models")]
    model: Vec<PathBuf>,
    /// (Areas) the folder holding the layout rooms' models (ROOM.mdl + ROOM.mdx): each room
    /// is compared with its model at its layout position (model.lyt_offset when it fits
    /// elsewhere).
    #[arg(long, value_name = "DIR")]
    models: Option<PathBuf>,
    #[command(flatten)]
    agent: AgentArgs,
    /// Text form: show at most N findings of each code (0 = all).
    #[arg(long, value_name = "N", default_value_t = 10, conflicts_with = "json")]
    max_per_code: usize,
}

/// The agent and voxel options of `--model`, as `generate` takes them (default: the engine's
/// preset).
#[derive(clap::Args, Debug)]
struct AgentArgs {
    /// (--model) Clearance a character needs above the floor (m).
    #[arg(long, value_name = "H", value_parser = crate::input::positive)]
    agent_height: Option<f32>,
    /// (--model) Distance kept from walls and drops (m).
    #[arg(long, value_name = "R", value_parser = crate::input::non_negative_distance)]
    agent_radius: Option<f32>,
    /// (--model) Highest step a character takes (m).
    #[arg(long, value_name = "H", value_parser = crate::input::non_negative_distance)]
    max_climb: Option<f32>,
    /// (--model) Steepest walkable floor (degrees).
    #[arg(long, value_name = "DEG", value_parser = crate::input::positive)]
    max_slope: Option<f32>,
    /// (--model) Voxel column width (m).
    #[arg(long, value_name = "S", value_parser = crate::input::positive)]
    cell_size: Option<f32>,
    /// (--model) Voxel height step (m).
    #[arg(long, value_name = "S", value_parser = crate::input::positive)]
    cell_height: Option<f32>,
    /// (--model) Memory limit (MiB), as for generate.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..))]
    max_memory: Option<u64>,
}

fn parse_level(text: &str) -> Result<Level, String> {
    Level::parse(text).ok_or_else(|| format!("{text:?} is not default or pedantic"))
}

fn parse_engine(text: &str) -> Result<Engine, String> {
    Engine::parse(text).ok_or_else(|| format!("{text:?} is not kotor, nwn2, prime or generic"))
}

#[derive(Serialize)]
struct Report<'a> {
    target: &'a Path,
    engine: &'static str,
    /// The level reported (`default` or `pedantic`).
    level: &'static str,
    findings: Vec<Shown<'a>>,
    /// Findings of groups above the level, not shown.
    below_level: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline: Option<BaselineReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fixed: Option<FixReport<'a>>,
    /// With --model: where the model was placed.
    #[serde(skip_serializing_if = "Option::is_none")]
    model: Option<ModelReport>,
}

/// Where `--model` placed the model: the shift added to its coordinates and the share of
/// walkable points on a render surface there.
#[derive(Serialize)]
struct ModelReport {
    files: Vec<PathBuf>,
    shift: [f32; 3],
    fit: f64,
}

/// What `--baseline` left out.
#[derive(Serialize)]
struct BaselineReport {
    file: PathBuf,
    /// Findings the baseline holds (not shown).
    known: usize,
    /// Baseline findings no longer found.
    gone: usize,
}

/// A repair as printed: for an area, the room whose file it was made in (faces are numbered
/// in that file).
#[derive(Serialize)]
struct ShownRepair<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    room: Option<&'a str>,
    #[serde(flatten)]
    repair: &'a Repair,
}

#[derive(Serialize)]
struct FixReport<'a> {
    output: &'a Path,
    repairs: Vec<ShownRepair<'a>>,
    /// Lint of the written file.
    remaining: Vec<Shown<'a>>,
    walkable_area_before: f64,
    walkable_area_after: f64,
}

/// What was linted: the mesh, its engine, the layout's room count for an area, the reader's
/// notes, and for an area what it was assembled from.
struct Linted {
    mesh: NavMesh,
    /// The engine of the file's format (an area's rooms are KotOR's).
    engine: Engine,
    layout_rooms: Option<usize>,
    notes: Diagnostics,
    area: Option<area::AreaSource>,
}

/// A repair with the room it was made in (`None` for a single file).
type RoomRepair = (Option<String>, Repair);

/// What `--fix` did: each repair (with its room, for an area), the mesh read back from what
/// was written (an area's rooms assembled again) and what reading it back noted (an area's
/// rooms still without a WOK).
struct FixOutcome {
    repairs: Vec<RoomRepair>,
    written: NavMesh,
    layout_rooms: Option<usize>,
    notes: Diagnostics,
}

fn is_area(args: &Args) -> bool {
    walkmesh_kotor_area::contents::is_area_target(&args.target, args.lyt.is_some())
}

/// The note on layout rooms the folder or archive has no WOK for.
fn missing_rooms(missing: &[String]) -> Diagnostics {
    let mut notes = Diagnostics::new();
    if !missing.is_empty() {
        notes.warn(
            "lint.room_without_walkmesh",
            format!("layout rooms without a walkmesh: {}", missing.join(", ")),
        );
    }
    notes
}

fn load_area(args: &Args) -> Result<Linted, Failure> {
    let source = open_rooms(&args.target)?;
    let (lyt, lyt_path) = room_layout(&source, args.lyt.as_deref())?;
    let (rooms, originals, missing) = load_rooms(&source, &lyt, &lyt_path)?;
    Ok(Linted {
        mesh: walkmesh_kotor_area::assemble::assemble(&lyt, &rooms),
        engine: Engine::Kotor,
        layout_rooms: Some(lyt.rooms.len()),
        notes: missing_rooms(&missing),
        area: Some(area::AreaSource {
            lyt,
            lyt_path,
            rooms,
            originals,
        }),
    })
}

fn load_file(registry: &Registry, args: &Args) -> Result<Linted, Failure> {
    let mut notes = Diagnostics::new();
    let (mesh, format) = load(registry, &args.target, &args.read, &mut notes)?;
    Ok(Linted {
        mesh: walkmesh_lint::as_linted(&mesh).into_owned(),
        engine: registry.engine_of(format),
        layout_rooms: None,
        notes,
        area: None,
    })
}

fn selection(args: &Args) -> Result<Selection, Failure> {
    Selection::new(
        args.level,
        &args.allow,
        &args.deny,
        args.baseline.as_deref(),
    )
}

pub fn run(registry: &Registry, args: &Args, stdout: &mut dyn Write) -> Result<i32, Failure> {
    let linted = if is_area(args) {
        load_area(args)?
    } else {
        load_file(registry, args)?
    };
    let selection = selection(args)?;
    let engine = args.engine.unwrap_or(linted.engine);
    let options = LintOptions {
        engine,
        character_width: args.character_width,
        ..LintOptions::default()
    };
    let mut findings: Vec<Finding> = linted
        .notes
        .items
        .iter()
        .map(Finding::from_diagnostic)
        .collect();
    findings.extend(walkmesh_lint::lint(
        &linted.mesh,
        &options,
        linted.layout_rooms,
    ));
    let model = model::compare(registry, args, &linted, engine, &mut findings)?;
    let judged = judge(&findings, &selection);
    let mut failed = judged.failed;
    let mut fixed_findings = Vec::new();
    let fix = match &args.fix {
        Some(out) => {
            let outcome = match &linted.area {
                Some(source) => {
                    let check = walkmesh_pipeline::check_options(&read_options(&args.read)?);
                    area::fix_area(registry, source, out, &options, &check)?
                }
                None => fix_file(registry, args, out, &linted.mesh, &options)?,
            };
            // Lint of what was written, read back.
            fixed_findings = outcome
                .notes
                .items
                .iter()
                .map(Finding::from_diagnostic)
                .collect();
            fixed_findings.extend(walkmesh_lint::lint(
                &outcome.written,
                &options,
                outcome.layout_rooms,
            ));
            Some(outcome)
        }
        None => None,
    };
    let fix_report = match (&fix, &args.fix) {
        (Some(outcome), Some(out)) => {
            let remaining = judge(&fixed_findings, &selection);
            failed = remaining.failed;
            Some(FixReport {
                output: out,
                repairs: outcome
                    .repairs
                    .iter()
                    .map(|(room, repair)| ShownRepair {
                        room: room.as_deref(),
                        repair,
                    })
                    .collect(),
                remaining: remaining.shown,
                walkable_area_before: walkmesh_lint::walkable_area(&linted.mesh),
                walkable_area_after: walkmesh_lint::walkable_area(&outcome.written),
            })
        }
        _ => None,
    };
    let report = Report {
        target: &args.target,
        engine: engine.name(),
        level: selection.level.name(),
        findings: judged.shown,
        below_level: judged.below_level,
        baseline: selection.baseline.as_ref().map(|(file, _)| BaselineReport {
            file: file.clone(),
            known: judged.known,
            gone: judged.gone,
        }),
        fixed: fix_report,
        model,
    };
    if args.json {
        writeln!(stdout, "{}", walkmesh_core::json::pretty(&report)?)?;
    } else {
        print_text(&report, args.max_per_code, stdout)?;
    }
    Ok(if failed { 1 } else { 0 })
}

/// Repairs one file's mesh, writes it to `out` and reads it back.
fn fix_file(
    registry: &Registry,
    args: &Args,
    out: &Path,
    mesh: &NavMesh,
    options: &LintOptions,
) -> Result<FixOutcome, Failure> {
    let fixed = walkmesh_lint::fix(mesh, options);
    write_repaired(
        registry,
        out,
        &read_options(&args.read)?,
        &fixed.mesh,
        policy::CLI_NAMES,
    )?;
    let mut notes = Diagnostics::new();
    let (written, _) = load(registry, out, &args.read, &mut notes)?;
    Ok(FixOutcome {
        repairs: fixed.repairs.into_iter().map(|r| (None, r)).collect(),
        written: walkmesh_lint::as_linted(&written).into_owned(),
        layout_rooms: None,
        notes: Diagnostics::new(),
    })
}

fn print_findings(
    findings: &[Shown<'_>],
    max_per_code: usize,
    stdout: &mut dyn Write,
) -> std::io::Result<()> {
    let mut shown: std::collections::BTreeMap<&str, usize> = Default::default();
    for item in findings {
        let finding = item.finding;
        let count = shown.entry(finding.code.as_str()).or_default();
        *count += 1;
        if max_per_code != 0 && *count > max_per_code {
            continue;
        }
        let severity = match finding.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "note",
        };
        let at = finding
            .at
            .map(|p| format!(" at ({:.2}, {:.2}, {:.2})", p[0], p[1], p[2]))
            .unwrap_or_default();
        let fixable = if finding.fixable { " [fixable]" } else { "" };
        let rule = item
            .rule
            .as_deref()
            .map(|r| format!(" [{r}]"))
            .unwrap_or_default();
        writeln!(
            stdout,
            "{severity} [{}]{at}: {}{fixable}{rule}",
            finding.code, finding.message
        )?;
    }
    for (code, count) in &shown {
        if max_per_code != 0 && *count > max_per_code {
            writeln!(
                stdout,
                "  … {} more [{code}] (--max-per-code 0 shows all)",
                count - max_per_code
            )?;
        }
    }
    Ok(())
}

fn print_text(
    report: &Report<'_>,
    max_per_code: usize,
    stdout: &mut dyn Write,
) -> std::io::Result<()> {
    print_findings(&report.findings, max_per_code, stdout)?;
    if let Some(model) = &report.model {
        let s = model.shift;
        writeln!(
            stdout,
            "compared with the model placed at ({:.2}, {:.2}, {:.2}) ({:.0}% of walkable points on a render surface)",
            s[0],
            s[1],
            s[2],
            model.fit * 100.0
        )?;
    }
    let mut left_out = String::new();
    if report.below_level > 0 {
        left_out.push_str(&format!(
            "; {} pedantic not shown (--level pedantic)",
            report.below_level
        ));
    }
    if let Some(baseline) = &report.baseline {
        left_out.push_str(&format!(
            "; {} in the baseline {}, {} of its findings gone",
            baseline.known,
            baseline.file.display(),
            baseline.gone
        ));
    }
    writeln!(
        stdout,
        "{}: {} finding(s) ({} engine rules, level {}{left_out})",
        report.target.display(),
        report.findings.len(),
        report.engine,
        report.level
    )?;
    if let Some(fixed) = &report.fixed {
        for shown in &fixed.repairs {
            let repair = shown.repair;
            let room = shown
                .room
                .map(|r| format!(" in room {r}"))
                .unwrap_or_default();
            writeln!(
                stdout,
                "repaired [{}]{room} faces {:?}: {}",
                repair.code, repair.faces, repair.message
            )?;
        }
        print_findings(&fixed.remaining, max_per_code, stdout)?;
        writeln!(
            stdout,
            "wrote {}: {} repair(s), {} finding(s) left; walkable area {:.3} → {:.3}",
            fixed.output.display(),
            fixed.repairs.len(),
            fixed.remaining.len(),
            fixed.walkable_area_before,
            fixed.walkable_area_after
        )?;
    }
    Ok(())
}
