//! An example of a walkmesh format defined outside the walkmesh workspace's format crates:
//! **textmesh**, a text walkmesh with materials, and the registry that adds it to the
//! built-in formats. `docs/extending.md` walks through it.
//!
//! ```text
//! textmesh 1
//! # vertices (Z up), then faces: 0-based vertex indices, a material, walk or wall
//! v 0 0 0
//! v 1 0 0
//! v 0 1 0
//! f 0 1 2 Stone walk
//! ```
//!
//! The material names are the neutral vocabulary (`walkmesh profiles neutral`), or the names
//! of `--materials FILE`; a face without `walk`/`wall` takes the profile's walkability.

mod dump;
mod parse;
mod write;

use walkmesh_core::material::MaterialProfile;
use walkmesh_core::{
    Diagnostic, Diagnostics, Format, FormatDescriptor, Input, Location, Magic, NavMesh, Output,
    Position, ReadError, ReadOptions, Reader, Registry, Requirements, Severity, Surface, Validator,
    WriteError, WriteOptions, Writer, dump::FieldSink, format::Dumper,
};

pub use parse::HEADER;
use parse::{Statement, statements};

/// The textmesh format: id `textmesh`, extension `.tmesh`, magic `textmesh ` at offset 0.
#[derive(Debug, Default, Clone, Copy)]
pub struct TextMeshFormat;

/// The default registry (every built-in format of this build) with textmesh after them.
pub fn registry() -> Registry {
    let mut registry = walkmesh_formats::default_registry();
    registry.register(Box::new(TextMeshFormat));
    registry
}

/// What textmesh declares: its names and magic. The engine, capabilities, profile and
/// parameters keep `FormatDescriptor::new`'s defaults: no engine (lint's generic rules, the
/// surface router), nothing stored beyond the mesh, the neutral profile, no writer
/// parameters. The feature is this crate: the built-in registry never leaves it out.
pub const DESCRIPTOR: FormatDescriptor = FormatDescriptor {
    magic: &[Magic {
        offset: 0,
        bytes: b"textmesh ",
        mask: None,
    }],
    ..FormatDescriptor::new(
        "textmesh",
        "Text walkmesh with materials (example third-party format)",
        &["tmesh"],
        "walkmesh-example-textmesh",
    )
};

impl Format for TextMeshFormat {
    fn descriptor(&self) -> &'static FormatDescriptor {
        &DESCRIPTOR
    }
    fn reader(&self) -> Option<&dyn Reader> {
        Some(self)
    }
    fn writer(&self) -> Option<&dyn Writer> {
        Some(self)
    }
    fn validator(&self) -> Option<&dyn Validator> {
        Some(self)
    }
    fn dumper(&self) -> Option<&dyn Dumper> {
        Some(self)
    }
}

/// The profile that names materials: the user's `--materials`, else the neutral one.
fn profile(options: &ReadOptions) -> std::borrow::Cow<'_, MaterialProfile> {
    match options.materials.as_deref() {
        Some(profile) => std::borrow::Cow::Borrowed(profile),
        None => std::borrow::Cow::Owned(MaterialProfile::neutral()),
    }
}

/// The surface of a face line: the profile's entry for `material`, walkability as the line
/// says when it says.
fn surface(
    profile: &MaterialProfile,
    material: &str,
    walkable: Option<bool>,
    line: u64,
) -> Result<Surface, ReadError> {
    let mut surface = profile.surface_for_name(material).ok_or_else(|| {
        ReadError::at_line(
            line,
            "f.material",
            format!(
                "unknown material {material:?}: the '{}' profile has no such name \
                 (`walkmesh profiles` lists them)",
                profile.engine
            ),
        )
    })?;
    if let Some(walkable) = walkable {
        surface.walkable = walkable;
    }
    Ok(surface)
}

fn read_text(input: Input<'_>, options: &ReadOptions) -> Result<NavMesh, ReadError> {
    let text = parse::text(input.bytes)?;
    let profile = profile(options);
    let mut mesh = NavMesh::default();
    let mut seen_header = false;
    // Corners are checked against the vertex count once every vertex is known.
    let mut face_lines = Vec::new();
    for (line, statement) in statements(text) {
        match statement? {
            Statement::Nothing => {}
            Statement::Header if !seen_header => seen_header = true,
            Statement::Header => {
                return Err(ReadError::at_line(line.number, "header", "a second header"));
            }
            _ if !seen_header => {
                return Err(ReadError::at_line(
                    line.number,
                    "header",
                    format!("a textmesh file starts with {HEADER:?}"),
                ));
            }
            Statement::Vertex(position) => mesh.vertices.push(position),
            Statement::Face {
                corners,
                material,
                walkable,
            } => {
                let surface = surface(&profile, material, walkable, line.number)?;
                mesh.push_polygon(&corners, surface);
                face_lines.push(line.number);
            }
        }
    }
    if !seen_header {
        return Err(ReadError::whole("header", format!("no {HEADER:?} line")));
    }
    for (face, corners) in mesh.polygons.iter().enumerate() {
        if let Some(&bad) = corners.iter().find(|&&c| c as usize >= mesh.vertices.len()) {
            let line = face_lines.get(face).copied().unwrap_or_default();
            return Err(ReadError::at_line(
                line,
                "f.corner",
                format!(
                    "vertex {bad} does not exist: the file has {} vertices (0-based)",
                    mesh.vertices.len()
                ),
            ));
        }
    }
    Ok(mesh)
}

impl Reader for TextMeshFormat {
    fn read(
        &self,
        input: Input<'_>,
        options: &ReadOptions,
        _diag: &mut Diagnostics,
    ) -> Result<NavMesh, ReadError> {
        let mesh = read_text(input, options)?;
        mesh.check()
            .map_err(|error| ReadError::whole("mesh", error.to_string()))?;
        Ok(mesh)
    }
}

impl Writer for TextMeshFormat {
    /// Any polygons, in any order, as they are: textmesh stores what the IR holds.
    fn requirements(&self, _options: &WriteOptions) -> Requirements {
        Requirements::default()
    }
    fn write(
        &self,
        mesh: &NavMesh,
        _options: &WriteOptions,
        diag: &mut Diagnostics,
    ) -> Result<Output, WriteError> {
        Ok(Output {
            main: write::write_textmesh(mesh, diag),
            sidecars: Vec::new(),
        })
    }
}

/// One finding of the format's own rules, at a line.
fn finding(severity: Severity, code: &str, line: u64, field: &str, message: String) -> Diagnostic {
    Diagnostic {
        severity,
        code: code.to_string(),
        message,
        location: Location {
            file: None,
            position: Position::Line(line),
            field: Some(field.to_string()),
        },
    }
}

impl Validator for TextMeshFormat {
    /// Every unreadable line (`textmesh.bad_line`, an error each, so that one run lists them
    /// all), corners past the last vertex (`textmesh.missing_vertex`), and faces whose `walk`
    /// or `wall` overrides their material's walkability (`textmesh.walkability_override`, a
    /// note: allowed, but another format may store only the material).
    fn validate(
        &self,
        input: Input<'_>,
        options: &ReadOptions,
    ) -> Result<Vec<Diagnostic>, ReadError> {
        let text = parse::text(input.bytes)?;
        let profile = profile(options);
        let mut findings = Vec::new();
        let mut vertices = 0u64;
        let mut faces = Vec::new();
        for (line, statement) in statements(text) {
            match statement {
                Err(error) => findings.push(finding(
                    Severity::Error,
                    "textmesh.bad_line",
                    line.number,
                    &error.field,
                    error.message,
                )),
                Ok(Statement::Vertex(_)) => vertices += 1,
                Ok(Statement::Face {
                    corners,
                    material,
                    walkable,
                }) => faces.push((line.number, corners, material, walkable)),
                Ok(_) => {}
            }
        }
        for (line, corners, material, walkable) in faces {
            if let Some(bad) = corners.iter().find(|&&c| u64::from(c) >= vertices) {
                findings.push(finding(
                    Severity::Error,
                    "textmesh.missing_vertex",
                    line,
                    "f.corner",
                    format!("vertex {bad} does not exist: the file has {vertices} vertices"),
                ));
            }
            match profile.surface_for_name(material) {
                None => findings.push(finding(
                    Severity::Error,
                    "textmesh.unknown_material",
                    line,
                    "f.material",
                    format!("unknown material {material:?}"),
                )),
                Some(surface) if walkable.is_some_and(|w| w != surface.walkable) => {
                    findings.push(finding(
                        Severity::Info,
                        "textmesh.walkability_override",
                        line,
                        "f.walkable",
                        format!(
                            "{material} is {} in the '{}' profile; this face says otherwise",
                            if surface.walkable {
                                "walkable"
                            } else {
                                "not walkable"
                            },
                            profile.engine
                        ),
                    ));
                }
                Some(_) => {}
            }
        }
        Ok(findings)
    }
}

impl Dumper for TextMeshFormat {
    fn dump_fields(
        &self,
        input: Input<'_>,
        options: &ReadOptions,
        sink: &mut dyn FieldSink,
    ) -> Result<(), ReadError> {
        // Parsed first: an unreadable file fails before anything is reported.
        read_text(input, options)?;
        dump::dump_fields(parse::text(input.bytes)?, sink);
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const SQUARE: &str = "textmesh 1\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n\
                          f 0 1 2 Stone\nf 0 2 3 Grass wall\n";

    fn read(text: &str) -> Result<NavMesh, ReadError> {
        let input = Input {
            bytes: text.as_bytes(),
            path: None,
        };
        TextMeshFormat.read(input, &ReadOptions::default(), &mut Diagnostics::new())
    }

    #[test]
    fn reads_materials_and_walkability_and_writes_them_back_the_same() {
        let mesh = read(SQUARE).unwrap();
        assert_eq!(mesh.vertices.len(), 4);
        assert_eq!(mesh.polygons.len(), 2);
        assert_eq!(mesh.surfaces[0].material.name(), "Stone");
        assert!(mesh.surfaces[0].walkable);
        assert_eq!(mesh.surfaces[1].material.name(), "Grass");
        assert!(!mesh.surfaces[1].walkable, "`wall` overrides Grass");
        let written = write::write_textmesh(&mesh, &mut Diagnostics::new());
        let again = read(std::str::from_utf8(&written).unwrap()).unwrap();
        assert_eq!(again.vertices, mesh.vertices);
        assert_eq!(again.surfaces, mesh.surfaces);
        assert_eq!(again.polygons, mesh.polygons);
    }

    #[test]
    fn errors_name_the_line_and_field() {
        let error = read("textmesh 1\nv 0 0 0\nf 0 1 2 Stone\n").unwrap_err();
        assert_eq!(error.position, Position::Line(3));
        assert_eq!(error.field, "f.corner");
        let error = read("textmesh 1\nv 0 0\n").unwrap_err();
        assert_eq!(
            (error.position, error.field.as_str()),
            (Position::Line(2), "v")
        );
        let error = read("v 0 0 0\n").unwrap_err();
        assert_eq!(error.field, "header");
        let error = read("textmesh 1\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2 Marble\n").unwrap_err();
        assert!(error.message.contains("unknown material"), "{error}");
    }

    #[test]
    fn the_registry_detects_it_by_magic_and_by_extension() {
        let registry = registry();
        let path = std::path::Path::new("x.bin");
        assert_eq!(
            registry
                .detect(path, SQUARE.as_bytes(), 10)
                .unwrap()
                .descriptor()
                .id,
            "textmesh"
        );
        let path = std::path::Path::new("x.TMESH");
        assert_eq!(
            registry.detect(path, b"", 0).unwrap().descriptor().id,
            "textmesh"
        );
        assert_eq!(
            registry.engine_of("textmesh"),
            walkmesh_core::Engine::Generic
        );
    }
}
