//! A JSON description of a BWM file's raw tables, for the peer check that compares our reader
//! with independent ones (`.ci/peers/bwm.sh`).

use std::fmt::Write as _;

use walkmesh_core::ReadError;

use crate::layout::{RawBwm, Table};

/// Indices to describe: all of them up to `limit`, else `limit` spread evenly (first and
/// last included).
fn sample(count: usize, limit: usize) -> Vec<usize> {
    if count <= limit {
        return (0..count).collect();
    }
    let mut picked: Vec<usize> = (0..limit).map(|k| k * (count - 1) / (limit - 1)).collect();
    picked.dedup();
    picked
}

fn float(value: f32) -> String {
    // Shortest text that reads back as the same f32 (Python compares with struct rounding).
    if value.is_finite() {
        format!("{value:?}")
    } else {
        "null".into()
    }
}

fn vec3(v: [f32; 3]) -> String {
    format!("[{},{},{}]", float(v[0]), float(v[1]), float(v[2]))
}

/// JSON describing what our reader sees in a BWM file: type, position, use points, the count
/// of every table and, per table, `[index, value]` pairs (all entries up to `limit`, else an
/// even sample of `limit`). `.ci/peers/bwm_check.py` compares it with what PyKotor and
/// bioware-kaitai-formats read from the same bytes.
pub fn sidecar_json(bytes: &[u8], limit: usize) -> Result<String, ReadError> {
    let raw = RawBwm::parse(bytes)?;
    let h = &raw.header;
    let mut json = String::new();
    let _ = write!(
        json,
        "{{\"type\":{},\"position\":{},",
        h.walkmesh_type,
        vec3(h.position)
    );
    let _ = write!(
        json,
        "\"relative_use\":[{},{}],\"absolute_use\":[{},{}],",
        vec3(h.rel_use[0]),
        vec3(h.rel_use[1]),
        vec3(h.abs_use[0]),
        vec3(h.abs_use[1])
    );
    json.push_str("\"counts\":{");
    let counts: Vec<String> = Table::ALL
        .iter()
        .map(|&t| format!("\"{}\":{}", t.name(), raw.span(t).count))
        .collect();
    json.push_str(&counts.join(","));
    json.push_str("},\"tables\":{");
    let mut tables = Vec::new();
    for table in Table::ALL {
        let count = raw.span(table).count;
        let entries: Vec<String> = sample(count, limit)
            .into_iter()
            .map(|i| {
                let value = match table {
                    Table::Vertices => vec3(raw.vertex(i)),
                    Table::Faces => format!("{:?}", raw.face(i)),
                    Table::Materials => raw.material(i).to_string(),
                    Table::Normals => vec3(raw.normal(i)),
                    Table::Distances => float(raw.distance(i)),
                    Table::Adjacency => format!("{:?}", raw.adjacency(i)),
                    Table::Edges => {
                        let (index, transition) = raw.edge(i);
                        format!("[{index},{transition}]")
                    }
                    Table::Perimeters => raw.perimeter(i).to_string(),
                    Table::Aabb => {
                        let n = raw.aabb(i);
                        format!(
                            "[{},{},{},{},{},{},{}]",
                            vec3(n.min),
                            vec3(n.max),
                            n.face,
                            n.unknown,
                            n.plane,
                            n.first as i32,
                            n.second as i32
                        )
                    }
                };
                format!("[{i},{value}]")
            })
            .collect();
        tables.push(format!("\"{}\":[{}]", table.name(), entries.join(",")));
    }
    json.push_str(&tables.join(","));
    json.push_str("}}\n");
    Ok(json)
}
