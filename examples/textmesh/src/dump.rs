//! The field dump: every line is one field, at its byte offset, grouped as `vertices` and
//! `faces` tables (so `walkmesh view` shows each face's line as its stored fields).

use walkmesh_core::dump::{DumpValue, Elem, Entry, FieldSink, Label};

use crate::parse::{Statement, statements};

/// Reports the header, then the `vertices` and `faces` tables, of an already read `text`.
pub fn dump_fields(text: &str, sink: &mut dyn FieldSink) {
    sink.comment("offsets are bytes from the start of the file; each field is one line");
    sink.open(&Entry::group(Some(Label::Name("textmesh")), Some(0)));
    let lines: Vec<_> = statements(text)
        .filter_map(|(line, statement)| statement.ok().map(|s| (line, s)))
        .collect();
    for (line, statement) in &lines {
        if *statement == Statement::Header {
            field(
                sink,
                Label::Name("header"),
                line,
                &DumpValue::Text(line.text.into()),
                None,
            );
        }
    }
    table(sink, "vertices", &lines, |statement| match statement {
        Statement::Vertex(position) => Some((DumpValue::Floats(position.to_vec()), None)),
        _ => None,
    });
    table(sink, "faces", &lines, |statement| match statement {
        Statement::Face {
            corners,
            material,
            walkable,
        } => Some((
            DumpValue::Ints(corners.iter().map(|&c| i64::from(c)).collect()),
            Some(match walkable {
                Some(true) => format!("{material}, walk"),
                Some(false) => format!("{material}, wall"),
                None => format!("{material}, walkability from the profile"),
            }),
        )),
        _ => None,
    });
    sink.close();
}

type Lines<'a> = [(crate::parse::Line<'a>, Statement<'a>)];

fn table(
    sink: &mut dyn FieldSink,
    name: &str,
    lines: &Lines<'_>,
    value: impl Fn(&Statement<'_>) -> Option<(DumpValue, Option<String>)>,
) {
    let rows: Vec<_> = lines
        .iter()
        .filter_map(|(line, statement)| value(statement).map(|v| (line, v)))
        .collect();
    let start = rows.first().map(|(line, _)| line.offset);
    sink.open(&Entry::group(Some(Label::Name(name)), start));
    for (index, (line, (value, note))) in rows.iter().enumerate() {
        field(
            sink,
            Label::Indexed(name, index as u64),
            line,
            value,
            note.as_deref(),
        );
    }
    sink.close();
}

fn field(
    sink: &mut dyn FieldSink,
    label: Label<'_>,
    line: &crate::parse::Line<'_>,
    value: &DumpValue,
    note: Option<&str>,
) {
    let note = note.as_ref().map(|text| text as &dyn std::fmt::Display);
    sink.field(&Entry {
        label: Some(label),
        offset: Some(line.offset),
        size: Some(line.text.len() as u64),
        elem: Elem::Char,
        raw: line.text.as_bytes(),
        value: Some(value),
        note,
        section: None,
        in_tree: true,
    });
}
