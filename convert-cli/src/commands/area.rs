//! `walkmesh area …`: KotOR areas — layouts (LYT/VIS), module archives (ERF/RIM), whole-area
//! assembly, room-to-room transitions, kits and Indoor Map Builder maps. The work is done by
//! `walkmesh-kotor-area`; this module reads arguments and files and prints.
//!
//! Wherever a walkmesh, layout or visibility file is named, `archive.mod:member.ext` names a
//! member of a module archive instead (`.mod`, `.erf`, `.sav`, `.hak`, `.rim`).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Subcommand;
use walkmesh_core::{Diagnostic, Diagnostics, Registry, Severity, UpAxis, WriteOptions};
use walkmesh_core::{confine, printable};
use walkmesh_kotor_area::Lyt;
use walkmesh_kotor_area::erf::read_file_or_member;
use walkmesh_kotor_area::extract::chosen_members;
use walkmesh_kotor_area::lyt::check_lyt;
use walkmesh_kotor_area::solved::{changed_rooms, solved_files};
use walkmesh_kotor_area::transitions::{Tolerance, apply, solve};
use walkmesh_kotor_area::vis::{check_vis, read_vis};
use walkmesh_pipeline::depfile;

use crate::areas::{
    AssembledArea, archive_summary, assemble_area, load_rooms, open_rooms, read_archive,
    room_layout,
};
use crate::input::{ReadArgs, load};
use crate::targets::{is_stdout, write_file};
use walkmesh_pipeline::area_files::{self, IndoorSources, IndoorWritten, kotor_room_format};
use walkmesh_pipeline::failure::Failure;
use walkmesh_pipeline::output::write_atomically;
use walkmesh_pipeline::write_set;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: AreaCommand,
}

#[derive(clap::Args, Debug, Clone)]
struct ToleranceArgs {
    /// Horizontal distance (XY) within which edge endpoints of two rooms coincide.
    #[arg(long, value_name = "DISTANCE", default_value_t = walkmesh_kotor_area::DEFAULT_TOLERANCE.horizontal,
          value_parser = crate::input::non_negative_distance)]
    tolerance: f32,
    /// Height difference within which edge endpoints of two rooms coincide.
    #[arg(long, value_name = "DISTANCE", default_value_t = walkmesh_kotor_area::DEFAULT_TOLERANCE.vertical,
          value_parser = crate::input::non_negative_distance)]
    vertical_tolerance: f32,
}

impl ToleranceArgs {
    fn get(&self) -> Tolerance {
        Tolerance {
            horizontal: self.tolerance,
            vertical: self.vertical_tolerance,
        }
    }
}

#[derive(Subcommand, Debug)]
enum AreaCommand {
    /// List the members of a module archive (.mod/.erf/.sav/.hak/.rim), walkmeshes and layouts
    /// first.
    ///
    /// Example: walkmesh area list ebo_m40aa.mod --json
    List {
        archive: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Extract members of an archive by name and type (all members when none is named).
    ///
    /// Example: walkmesh area extract ebo_m40aa.mod m12ac.lyt m12aa_42a.wok -o rooms/
    Extract {
        archive: PathBuf,
        members: Vec<String>,
        /// Folder to write into (default: the current folder); `-` is refused (a folder).
        #[arg(short, long, value_name = "DIR", default_value = ".")]
        out: PathBuf,
    },
    /// Write a copy of an archive with members replaced or added; every other member is kept
    /// byte for byte. A file's name is its member name (`m12aa_42a.wok`).
    ///
    /// Example: walkmesh area replace ebo_m40aa.mod fixed.mod m12aa_42a.wok
    Replace {
        archive: PathBuf,
        /// The archive to write; `-`: standard output (the list of changes then goes to
        /// standard error).
        out: PathBuf,
        files: Vec<PathBuf>,
    },
    /// Check a layout (and its visibility file): counts, names of at most 16 characters, door
    /// hooks on known rooms, VIS rooms that exist in the LYT, one-way visibility. Exit code 1
    /// on errors.
    ///
    /// Example: walkmesh area check m40ad.lyt --vis m40ad.vis
    Check {
        lyt: PathBuf,
        #[arg(long, value_name = "VIS")]
        vis: Option<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// Solve every room-to-room transition from geometry and fix the room WOKs (in place, or
    /// into --out); --check only reports (exit code 1 when anything would change or an error
    /// is found). ROOMS is a folder of `<room>.wok` files or a module archive.
    ///
    /// Example: walkmesh area solve rooms/ --lyt m40ad.lyt --check
    Solve {
        rooms: PathBuf,
        /// The layout (default: the one .lyt in the folder or archive).
        #[arg(long, value_name = "LYT")]
        lyt: Option<PathBuf>,
        /// Report only; write nothing.
        #[arg(long)]
        check: bool,
        /// Write the fixed WOKs into this folder (or the fixed archive to this file) instead of
        /// in place.
        #[arg(short, long, value_name = "PATH", conflicts_with = "check")]
        out: Option<PathBuf>,
        #[command(flatten)]
        tolerance: ToleranceArgs,
        #[arg(long)]
        json: bool,
    },
    /// Build one mesh of the whole area (every room placed, faces tagged with their room,
    /// transitions as edge tags, door hooks as hooks) and write it as glTF or OBJ for Blender.
    ///
    /// Example: walkmesh area assemble ebo_m40aa.mod area.glb
    Assemble {
        rooms: PathBuf,
        /// The mesh to write (.glb, .gltf or .obj); `-` is refused: the format comes from
        /// the extension, and OBJ and .gltf bring a sidecar.
        out: PathBuf,
        #[arg(long, value_name = "LYT")]
        lyt: Option<PathBuf>,
        /// Write a Make/Ninja rule to FILE: OUT and its sidecars, then the layout and every
        /// room walkmesh read (or the module archive they came from).
        #[arg(long, value_name = "FILE")]
        depfile: Option<PathBuf>,
    },
    /// Split an area mesh (from `area assemble`, possibly edited) back into one WOK per room,
    /// in area coordinates, every table rebuilt.
    ///
    /// Example: walkmesh area split area.glb rooms/ --lyt m40ad.lyt
    Split {
        mesh: PathBuf,
        /// The folder the room WOKs go to; `-` is refused (a folder).
        out: PathBuf,
        #[arg(long, value_name = "LYT")]
        lyt: PathBuf,
        /// Write a Make/Ninja rule to FILE for every room WOK written: the mesh (and the
        /// files it read, such as glTF buffers) and the layout.
        #[arg(long, value_name = "FILE")]
        depfile: Option<PathBuf>,
        #[command(flatten)]
        read: ReadArgs,
    },
    /// Build an Indoor Map Builder map: every room's walkmesh from its kit (or its embedded
    /// override), flipped, rotated and moved, transitions solved; writes `<room>.wok` per
    /// room and `<module>.lyt` into OUT.
    ///
    /// Example: walkmesh area indoor map.indoor out/ --kits kits/
    Indoor {
        map: PathBuf,
        /// The folder the room WOKs and the layout go to; `-` is refused (a folder).
        out: PathBuf,
        /// Folder of kit JSON files.
        #[arg(long, value_name = "DIR")]
        kits: PathBuf,
        /// Folder holding `<kit id>/<component id>.wok` (default: the --kits folder).
        #[arg(long, value_name = "DIR")]
        kit_woks: Option<PathBuf>,
        #[command(flatten)]
        tolerance: ToleranceArgs,
    },
}

pub fn run(
    registry: &Registry,
    args: &Args,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    match &args.command {
        AreaCommand::List { archive, json } => list(archive, *json, stdout),
        AreaCommand::Extract {
            archive,
            members,
            out,
        } => extract(archive, members, out, stdout),
        AreaCommand::Replace {
            archive,
            out,
            files,
        } => replace(archive, out, files, stdout, stderr),
        AreaCommand::Check { lyt, vis, json } => check(lyt, vis.as_deref(), *json, stdout),
        AreaCommand::Solve {
            rooms,
            lyt,
            check,
            out,
            tolerance,
            json,
        } => solve_command(
            registry,
            rooms,
            lyt.as_deref(),
            *check,
            out.as_deref(),
            tolerance.get(),
            *json,
            stdout,
        ),
        AreaCommand::Assemble {
            rooms,
            out,
            lyt,
            depfile,
        } => assemble_command(
            registry,
            rooms,
            out,
            (lyt.as_deref(), depfile.as_deref()),
            stdout,
            stderr,
        ),
        AreaCommand::Split {
            mesh,
            out,
            lyt,
            depfile,
            read,
        } => split_command(
            registry,
            mesh,
            out,
            (lyt, depfile.as_deref()),
            read,
            stdout,
            stderr,
        ),
        AreaCommand::Indoor {
            map,
            out,
            kits,
            kit_woks,
            tolerance,
        } => {
            let sources = IndoorSources {
                map,
                kits,
                kit_woks: kit_woks.as_deref(),
            };
            indoor(registry, sources, out, tolerance.get(), stdout)
        }
    }
}

fn list(path: &Path, json: bool, stdout: &mut dyn Write) -> Result<i32, Failure> {
    let archive = read_archive(path)?;
    let mut members: Vec<_> = archive.members.iter().collect();
    // Walkmeshes and layouts first, then archive order.
    let rank = |t: u16| match t {
        2016 | 2052 | 2053 => 0,
        3000 | 3001 => 1,
        _ => 2,
    };
    members.sort_by_key(|m| rank(m.type_id));
    if json {
        let rows: Vec<serde_json::Value> = members
            .iter()
            .map(|m| {
                let range = m.source_range();
                serde_json::json!({
                    "name": m.file_name(),
                    "type": m.type_id,
                    "size": archive.data(m).len(),
                    "offset": range.map(|r| r.start),
                })
            })
            .collect();
        writeln!(stdout, "{}", walkmesh_core::json::pretty(&rows)?)?;
        return Ok(0);
    }
    for line in archive_summary(&archive) {
        writeln!(stdout, "{line}")?;
    }
    for m in members {
        let range = m
            .source_range()
            .map_or(String::from("-"), |r| format!("{}..{}", r.start, r.end));
        writeln!(
            stdout,
            "  {:<24} {:>5} {:>9} bytes  {range}",
            printable::escape(&m.file_name()),
            m.type_id,
            archive.data(m).len()
        )?;
    }
    Ok(0)
}

fn extract(
    path: &Path,
    names: &[String],
    out: &Path,
    stdout: &mut dyn Write,
) -> Result<i32, Failure> {
    let archive = read_archive(path)?;
    let chosen = chosen_members(&archive, names, path)?;
    // Every name is checked before anything is written.
    let targets = chosen
        .iter()
        .map(|member| confine::join(out, &member.file_name(), "archive member", path))
        .collect::<Result<Vec<_>, _>>()?;
    std::fs::create_dir_all(out)
        .map_err(|e| Failure::in_context(format!("cannot create {}: ", out.display()), &e))?;
    for (member, target) in chosen.iter().zip(&targets) {
        write_atomically(target, archive.data(member))?;
        writeln!(stdout, "{}", target.display())?;
    }
    Ok(0)
}

fn replace(
    path: &Path,
    out: &Path,
    files: &[PathBuf],
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let mut archive = read_archive(path)?;
    // With the archive on standard output, the list of changes goes to standard error.
    let mut report = Vec::new();
    for file in files {
        let name = file
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or_else(|| Failure::input(format!("{} has no usable file name", file.display())))?;
        let bytes = walkmesh_core::files::read(file)
            .map_err(|e| Failure::in_context(format!("cannot read {}: ", file.display()), &e))?;
        let replaced = archive.put(name, bytes).map_err(Failure::from)?;
        report.push(format!(
            "{} {name}",
            if replaced { "replaced" } else { "added" }
        ));
    }
    let bytes = archive.write().map_err(Failure::from)?;
    // The members are the user's files, put in as they are; the archive is ours: it must
    // read back before it is written.
    walkmesh_kotor_area::erf::Archive::parse(&bytes).map_err(|e| {
        Failure::invalid_output(
            format!(
                "{}: the archive made does not read back: {e}",
                out.display()
            ),
            Vec::new(),
        )
    })?;
    write_file(out, &bytes, stdout)?;
    let report_to: &mut dyn Write = if is_stdout(out) { stderr } else { stdout };
    for line in report {
        writeln!(report_to, "{line}")?;
    }
    Ok(0)
}

fn print_findings(
    findings: &[Diagnostic],
    file: &Path,
    stdout: &mut dyn Write,
) -> Result<(), Failure> {
    for finding in findings {
        let mut finding = finding.clone();
        if finding.location.file.is_none() {
            finding.location.file = Some(file.to_path_buf());
        }
        writeln!(stdout, "{finding}")?;
    }
    Ok(())
}

fn load_lyt(path: &Path) -> Result<(Lyt, Vec<Diagnostic>), Failure> {
    Ok(walkmesh_kotor_area::rooms::load_lyt(
        path,
        walkmesh_pipeline::output::note_read,
    )?)
}

fn check(
    lyt_path: &Path,
    vis_path: Option<&Path>,
    json: bool,
    stdout: &mut dyn Write,
) -> Result<i32, Failure> {
    let (lyt, mut findings) = load_lyt(lyt_path)?;
    findings.extend(check_lyt(&lyt));
    let mut all: Vec<(PathBuf, Diagnostic)> = findings
        .into_iter()
        .map(|f| (lyt_path.to_path_buf(), f))
        .collect();
    if let Some(vis_path) = vis_path {
        let bytes = read_file_or_member(vis_path).map_err(Failure::from)?;
        let (vis, mut found) = read_vis(&bytes).map_err(|e| Failure::from(e.in_file(vis_path)))?;
        found.extend(check_vis(&vis, Some(&lyt)));
        all.extend(found.into_iter().map(|f| (vis_path.to_path_buf(), f)));
    }
    let errors = all
        .iter()
        .filter(|(_, f)| f.severity == Severity::Error)
        .count();
    if json {
        let items: Vec<Diagnostic> = all
            .into_iter()
            .map(|(file, mut f)| {
                f.location.file = Some(file);
                f
            })
            .collect();
        writeln!(
            stdout,
            "{}",
            walkmesh_core::json::pretty(&serde_json::json!({
                "rooms": lyt.rooms.len(),
                "door_hooks": lyt.door_hooks.len(),
                "findings": items,
            }))?
        )?;
    } else {
        writeln!(
            stdout,
            "{}: {} rooms, {} door hooks",
            lyt_path.display(),
            lyt.rooms.len(),
            lyt.door_hooks.len()
        )?;
        for (file, f) in &all {
            print_findings(std::slice::from_ref(f), file, stdout)?;
        }
    }
    Ok(if errors > 0 { 1 } else { 0 })
}

#[allow(clippy::too_many_arguments)]
fn solve_command(
    registry: &Registry,
    rooms_path: &Path,
    lyt_path: Option<&Path>,
    check_only: bool,
    out: Option<&Path>,
    tolerance: Tolerance,
    json: bool,
    stdout: &mut dyn Write,
) -> Result<i32, Failure> {
    let source = open_rooms(rooms_path)?;
    let (lyt, lyt_file) = room_layout(&source, lyt_path)?;
    let (mut rooms, originals, missing) = load_rooms(&source, &lyt, &lyt_file)?;
    let solution = solve(&rooms, lyt.rooms.len(), tolerance);
    let changed = solution.changed();
    if json {
        writeln!(
            stdout,
            "{}",
            walkmesh_core::json::pretty(&serde_json::json!({
                "layout": lyt_file,
                "rooms": lyt.rooms.len(),
                "rooms_with_walkmesh": rooms.len(),
                "rooms_without_walkmesh": missing,
                "perimeter_edges": solution.edges.len(),
                "coinciding_pairs": solution.pairs.len(),
                "edges_to_change": changed,
                "findings": solution.findings,
            }))?
        )?;
    } else {
        writeln!(
            stdout,
            "{}: {} rooms, {} with a walkmesh; {} perimeter edges, {} coinciding pairs; {changed} transition(s) to change",
            lyt_file.display(),
            lyt.rooms.len(),
            rooms.len(),
            solution.edges.len(),
            solution.pairs.len()
        )?;
        if !missing.is_empty() {
            writeln!(stdout, "rooms without a walkmesh: {}", missing.join(", "))?;
        }
        for f in &solution.findings {
            writeln!(stdout, "{f}")?;
        }
    }
    if check_only {
        return Ok(if changed > 0 || solution.errors() > 0 {
            1
        } else {
            0
        });
    }
    apply(&mut rooms, &solution);
    let changed_rooms = changed_rooms(&rooms, &solution);
    let solved = solved_files(&source, &rooms, &originals, &changed_rooms, out, &lyt_file)?;
    let rewritten: Vec<String> = changed_rooms
        .iter()
        .filter_map(|&slot| rooms.get(slot))
        .map(|room| format!("{}.wok", room.name))
        .collect();
    let written = write_set::write_solved(
        kotor_room_format(registry)?,
        solved,
        &rewritten,
        out.is_none(),
        walkmesh_pipeline::policy::CLI_NAMES,
    )?;
    if !json {
        for path in written {
            writeln!(stdout, "wrote {}", path.display())?;
        }
    }
    Ok(0)
}

fn assemble_command(
    registry: &Registry,
    rooms_path: &Path,
    out: &Path,
    (lyt_path, depfile): (Option<&Path>, Option<&Path>),
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let AssembledArea {
        source,
        lyt_file,
        rooms,
        mesh,
    } = assemble_area(rooms_path, lyt_path, stderr)?;
    let format = registry.for_output(out)?;
    let writer = format.writer().ok_or_else(|| {
        Failure::input(format!(
            "the {} format cannot be written",
            format.descriptor().id
        ))
    })?;
    // OBJ is written Y up, as Blender imports it by default (glTF is Y up by its spec).
    let options = WriteOptions {
        up: UpAxis::Y,
        file_name: out.file_name().and_then(|n| n.to_str()).map(str::to_string),
        ..WriteOptions::default()
    };
    let mut diag = Diagnostics::new();
    let output = writer.write(&mesh, &options, &mut diag)?;
    for item in &diag.items {
        writeln!(stderr, "{item}")?;
    }
    let dir = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let sidecars: Vec<PathBuf> = output
        .sidecars
        .iter()
        .map(|s| dir.join(&s.file_name))
        .collect();
    // Read back and validated with its sidecars before anything is renamed into place.
    let check = walkmesh_pipeline::check_options(&walkmesh_core::ReadOptions {
        up: UpAxis::Y,
        ..walkmesh_core::ReadOptions::default()
    });
    write_set::write_checked_outputs(
        format,
        vec![(out.to_path_buf(), output)],
        &check,
        walkmesh_pipeline::policy::CLI_NAMES,
    )?;
    if let Some(depfile) = depfile {
        let targets: Vec<PathBuf> = std::iter::once(out.to_path_buf()).chain(sidecars).collect();
        let read = std::iter::once(walkmesh_kotor_area::erf::file_holding(&lyt_file))
            .chain(source.files_of(&rooms));
        let rule = depfile::rule(&targets, &depfile::unique(read));
        write_atomically(depfile, rule.as_bytes())?;
    }
    writeln!(
        stdout,
        "{}: {} rooms placed, {} faces, {} transitions, {} door hooks",
        out.display(),
        rooms.len(),
        mesh.polygons.len(),
        mesh.edge_tags.len(),
        mesh.hooks.len()
    )?;
    Ok(0)
}

fn split_command(
    registry: &Registry,
    mesh_path: &Path,
    out: &Path,
    (lyt_path, depfile): (&Path, Option<&Path>),
    read: &ReadArgs,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<i32, Failure> {
    let (lyt, _) = load_lyt(lyt_path)?;
    let mut diag = Diagnostics::new();
    let (mesh, _) = load(registry, mesh_path, read, &mut diag)?;
    for item in &diag.items {
        writeln!(stderr, "{item}")?;
    }
    let read_files = depfile::unique(
        std::iter::once(walkmesh_kotor_area::erf::file_holding(mesh_path))
            .chain(mesh.provenance.iter().flat_map(|p| p.files_read.clone()))
            .chain([walkmesh_kotor_area::erf::file_holding(lyt_path)]),
    );
    let written = area_files::split_area(registry, (&mesh, mesh_path), (&lyt, lyt_path), out)?;
    let mut rules = String::new();
    for room in written {
        for item in &room.notes {
            writeln!(stderr, "{}: {item}", room.name)?;
        }
        rules.push_str(&depfile::rule(
            std::slice::from_ref(&room.path),
            &read_files,
        ));
        writeln!(stdout, "{} ({} faces)", room.path.display(), room.faces)?;
    }
    if let Some(depfile) = depfile {
        write_atomically(depfile, rules.as_bytes())?;
    }
    Ok(0)
}

fn indoor(
    registry: &Registry,
    sources: IndoorSources<'_>,
    out: &Path,
    tolerance: Tolerance,
    stdout: &mut dyn Write,
) -> Result<i32, Failure> {
    let IndoorWritten {
        rooms,
        layout,
        build,
    } = area_files::indoor_area(registry, sources, out, tolerance)?;
    for room in &rooms {
        writeln!(
            stdout,
            "wrote {} ({} transition edges)",
            room.path.display(),
            room.transition_edges
        )?;
    }
    writeln!(
        stdout,
        "wrote {} ({} rooms, {} hook links)",
        layout.display(),
        build.lyt.rooms.len(),
        build.links.len()
    )?;
    let changed = build.solution.changed();
    for f in &build.findings {
        writeln!(stdout, "{f}")?;
    }
    // What the geometric solve corrected after the builder's hook step (kit placeholders on
    // doorway side edges, indices left in overrides from their original modules); the rooms
    // written carry the corrected transitions.
    writeln!(
        stdout,
        "corrected by the geometric solve after the hook step: {changed} edge(s)"
    )?;
    for f in &build.solution.findings {
        writeln!(stdout, "  {f}")?;
    }
    let errors = build
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    Ok(if errors > 0 { 1 } else { 0 })
}
