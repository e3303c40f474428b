//! The on-disk layout of `BWM V1.0` and a bounds-checked parse of its raw tables.
//!
//! [`RawBwm::parse`] only checks what it must to read without panicking and without
//! allocating more than the file can hold: the magic, the header, and that every table lies
//! inside the file. Everything else (index ranges, the derived tables' consistency) is left to
//! the reader (what the IR needs) and the validator (everything).

use walkmesh_core::ReadError;
use walkmesh_core::cursor::{ByteCursor, NoRoom};

/// Size of the header.
pub const HEADER_SIZE: usize = 0x88;
/// Size of one AABB node.
pub const AABB_NODE_SIZE: usize = 44;
/// The value every game file stores in each node's field at 0x1C.
pub const AABB_UNKNOWN: u32 = 4;
/// Child / face value meaning "none".
pub const NONE: u32 = u32::MAX;

/// Walkmesh type at 0x08: area (`.wok`).
pub const TYPE_AREA: u32 = 1;
/// Walkmesh type at 0x08: placeable or door (`.pwk`/`.dwk`).
pub const TYPE_OBJECT: u32 = 0;

/// Header field offsets.
pub mod off {
    pub const MAGIC: usize = 0x00;
    pub const VERSION: usize = 0x04;
    pub const TYPE: usize = 0x08;
    pub const REL_USE1: usize = 0x0C;
    pub const REL_USE2: usize = 0x18;
    pub const ABS_USE1: usize = 0x24;
    pub const ABS_USE2: usize = 0x30;
    pub const POSITION: usize = 0x3C;
    pub const VERTEX_COUNT: usize = 0x48;
    pub const VERTEX_OFFSET: usize = 0x4C;
    pub const FACE_COUNT: usize = 0x50;
    pub const FACE_OFFSET: usize = 0x54;
    pub const MATERIAL_OFFSET: usize = 0x58;
    pub const NORMAL_OFFSET: usize = 0x5C;
    pub const DISTANCE_OFFSET: usize = 0x60;
    pub const AABB_COUNT: usize = 0x64;
    pub const AABB_OFFSET: usize = 0x68;
    pub const AABB_ROOT: usize = 0x6C;
    pub const ADJACENCY_COUNT: usize = 0x70;
    pub const ADJACENCY_OFFSET: usize = 0x74;
    pub const EDGE_COUNT: usize = 0x78;
    pub const EDGE_OFFSET: usize = 0x7C;
    pub const PERIMETER_COUNT: usize = 0x80;
    pub const PERIMETER_OFFSET: usize = 0x84;
}

/// The nine tables in the order game files store them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    Vertices,
    Faces,
    Materials,
    Normals,
    Distances,
    Aabb,
    Adjacency,
    Edges,
    Perimeters,
}

impl Table {
    pub const ALL: [Table; 9] = [
        Table::Vertices,
        Table::Faces,
        Table::Materials,
        Table::Normals,
        Table::Distances,
        Table::Aabb,
        Table::Adjacency,
        Table::Edges,
        Table::Perimeters,
    ];

    /// Field path prefix (`vertices`, `aabb`, …).
    pub fn name(self) -> &'static str {
        match self {
            Table::Vertices => "vertices",
            Table::Faces => "faces",
            Table::Materials => "materials",
            Table::Normals => "normals",
            Table::Distances => "distances",
            Table::Aabb => "aabb",
            Table::Adjacency => "adjacency",
            Table::Edges => "edges",
            Table::Perimeters => "perimeters",
        }
    }

    /// Bytes per entry.
    pub fn entry_size(self) -> usize {
        match self {
            Table::Vertices | Table::Faces | Table::Normals | Table::Adjacency => 12,
            Table::Materials | Table::Distances | Table::Perimeters => 4,
            Table::Aabb => AABB_NODE_SIZE,
            Table::Edges => 8,
        }
    }

    /// Header offsets of the (count, offset) fields; faces, materials, normals and distances
    /// share the face count.
    pub fn header_fields(self) -> (usize, usize) {
        match self {
            Table::Vertices => (off::VERTEX_COUNT, off::VERTEX_OFFSET),
            Table::Faces => (off::FACE_COUNT, off::FACE_OFFSET),
            Table::Materials => (off::FACE_COUNT, off::MATERIAL_OFFSET),
            Table::Normals => (off::FACE_COUNT, off::NORMAL_OFFSET),
            Table::Distances => (off::FACE_COUNT, off::DISTANCE_OFFSET),
            Table::Aabb => (off::AABB_COUNT, off::AABB_OFFSET),
            Table::Adjacency => (off::ADJACENCY_COUNT, off::ADJACENCY_OFFSET),
            Table::Edges => (off::EDGE_COUNT, off::EDGE_OFFSET),
            Table::Perimeters => (off::PERIMETER_COUNT, off::PERIMETER_OFFSET),
        }
    }

    /// Header field names of the (count, offset) fields.
    pub fn header_names(self) -> (&'static str, &'static str) {
        match self {
            Table::Vertices => ("header.vertex_count", "header.vertex_offset"),
            Table::Faces => ("header.face_count", "header.face_offset"),
            Table::Materials => ("header.face_count", "header.material_offset"),
            Table::Normals => ("header.face_count", "header.normal_offset"),
            Table::Distances => ("header.face_count", "header.distance_offset"),
            Table::Aabb => ("header.aabb_count", "header.aabb_offset"),
            Table::Adjacency => ("header.adjacency_count", "header.adjacency_offset"),
            Table::Edges => ("header.edge_count", "header.edge_offset"),
            Table::Perimeters => ("header.perimeter_count", "header.perimeter_offset"),
        }
    }

    /// True for the four tables only area walkmeshes carry.
    pub fn area_only(self) -> bool {
        matches!(
            self,
            Table::Aabb | Table::Adjacency | Table::Edges | Table::Perimeters
        )
    }
}

/// A table's place in the file, already checked to lie inside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    pub count: usize,
    pub offset: usize,
}

impl Span {
    /// Bytes the table occupies.
    pub fn len(&self, table: Table) -> usize {
        self.count * table.entry_size()
    }

    /// Byte offset of entry `index`.
    pub fn entry(&self, table: Table, index: usize) -> usize {
        self.offset + index * table.entry_size()
    }
}

/// The header of a BWM file.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    pub walkmesh_type: u32,
    pub rel_use: [[f32; 3]; 2],
    pub abs_use: [[f32; 3]; 2],
    pub position: [f32; 3],
    /// The field at 0x6C (0 in every known file).
    pub aabb_root: u32,
    /// Raw (count, offset) of each table in [`Table::ALL`] order.
    pub raw: [(u32, u32); 9],
}

/// One AABB node as stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AabbNode {
    pub min: [f32; 3],
    pub max: [f32; 3],
    pub face: i32,
    pub unknown: u32,
    pub plane: u32,
    pub first: u32,
    pub second: u32,
}

/// The span of `table`, `count` entries from byte `offset`, checked through core's cursor to
/// lie inside the file before anything is read from it or allocated for it; refused at the
/// header field that is wrong (the offset when the table starts past the end, else the count).
fn table_span(
    file: &ByteCursor<'_>,
    table: Table,
    count: u32,
    offset: u32,
) -> Result<Span, ReadError> {
    let (count_name, offset_name) = table.header_names();
    let (count_at, offset_at) = table.header_fields();
    let len = file.data().len();
    match file.table_room(
        u64::from(offset),
        u64::from(count),
        table.entry_size() as u64,
    ) {
        Ok(range) => Ok(Span {
            count: count as usize,
            offset: range.start,
        }),
        Err(NoRoom::StartPastEnd) => Err(ReadError::at_offset(
            offset_at as u64,
            offset_name,
            format!(
                "the {} table starts at byte {offset}, past the end of the {len}-byte file",
                table.name()
            ),
        ).with_kind(walkmesh_core::ErrorKind::Truncated)),
        Err(NoRoom::TooLong { left, .. }) => Err(ReadError::at_offset(
            count_at as u64,
            count_name,
            format!(
                "{count} {} entries of {} bytes from byte {offset} need {} bytes, but only {left} remain",
                table.name(),
                table.entry_size(),
                u64::from(count) * table.entry_size() as u64
            ),
        ).with_kind(walkmesh_core::ErrorKind::Truncated)),
    }
}

/// A parsed file: the header and the checked place of every table.
#[derive(Clone, Debug)]
pub struct RawBwm<'a> {
    pub bytes: &'a [u8],
    pub header: Header,
    /// Spans in [`Table::ALL`] order.
    pub spans: [Span; 9],
}

impl<'a> RawBwm<'a> {
    /// Parses the header and checks that every table lies inside the file.
    pub fn parse(bytes: &'a [u8]) -> Result<RawBwm<'a>, ReadError> {
        if bytes.len() < HEADER_SIZE {
            return Err(ReadError::at_offset(
                bytes.len() as u64,
                "header",
                format!(
                    "the file is {} bytes long, shorter than the {HEADER_SIZE}-byte BWM header",
                    bytes.len()
                ),
            )
            .with_kind(walkmesh_core::ErrorKind::Truncated));
        }
        if bytes.get(0..4) != Some(b"BWM ") {
            return Err(ReadError::at_offset(
                0,
                "header.magic",
                "the file does not start with \"BWM \"",
            ));
        }
        if bytes.get(4..8) != Some(b"V1.0") {
            return Err(ReadError::at_offset(
                4,
                "header.version",
                "the version is not \"V1.0\", the only one known",
            )
            .with_kind(walkmesh_core::ErrorKind::Unsupported));
        }
        // The header is known to be complete; its fields are read through core's cursor all
        // the same, each by name.
        let mut c = ByteCursor::little(bytes);
        let mut word = |at: usize, field: &'static str| -> Result<u32, ReadError> {
            c.seek(at, field)?;
            c.u32(field)
        };
        let mut raw = [(0u32, 0u32); 9];
        for (slot, table) in raw.iter_mut().zip(Table::ALL) {
            let (count_at, offset_at) = table.header_fields();
            let (count_name, offset_name) = table.header_names();
            *slot = (word(count_at, count_name)?, word(offset_at, offset_name)?);
        }
        let walkmesh_type = word(off::TYPE, "header.type")?;
        let aabb_root = word(off::AABB_ROOT, "header.aabb_root")?;
        let mut vec = |at: usize, field: &'static str| -> Result<[f32; 3], ReadError> {
            c.seek(at, field)?;
            c.vec3(field)
        };
        let header = Header {
            walkmesh_type,
            rel_use: [
                vec(off::REL_USE1, "header.relative_use1")?,
                vec(off::REL_USE2, "header.relative_use2")?,
            ],
            abs_use: [
                vec(off::ABS_USE1, "header.absolute_use1")?,
                vec(off::ABS_USE2, "header.absolute_use2")?,
            ],
            position: vec(off::POSITION, "header.position")?,
            aabb_root,
            raw,
        };
        let mut spans = [Span::default(); 9];
        for ((span, table), &(count, offset)) in spans.iter_mut().zip(Table::ALL).zip(&raw) {
            if count == 0 {
                // An empty table's offset is never dereferenced (type-0 files store 0).
                *span = Span {
                    count: 0,
                    offset: offset as usize,
                };
                continue;
            }
            *span = table_span(&c, table, count, offset)?;
        }
        Ok(RawBwm {
            bytes,
            header,
            spans,
        })
    }

    /// The span of `table`.
    pub fn span(&self, table: Table) -> Span {
        // The variants are declared in `Table::ALL` order (`spans_are_in_table_order`).
        self.spans.get(table as usize).copied().unwrap_or_default()
    }

    /// The `N` words of entry `i` of `table`, read from one slice (zeros past the table;
    /// spans are checked, so only a bad `i` gets there). The accessors below go through
    /// here: the output check reads every entry of a million-face file.
    fn words<const N: usize>(&self, table: Table, i: usize) -> [u32; N] {
        let mut out = [0u32; N];
        let span = self.span(table);
        if i >= span.count {
            return out;
        }
        let at = span.entry(table, i);
        let Some(bytes) = at
            .checked_add(4 * N)
            .and_then(|end| self.bytes.get(at..end))
        else {
            return out;
        };
        for (word, chunk) in out.iter_mut().zip(bytes.chunks_exact(4)) {
            if let Ok(four) = <[u8; 4]>::try_from(chunk) {
                *word = u32::from_le_bytes(four);
            }
        }
        out
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.span(Table::Vertices).count
    }

    /// Number of faces.
    pub fn face_count(&self) -> usize {
        self.span(Table::Faces).count
    }

    /// Vertex `i` (zero past the table; spans are checked, so only a bad `i` gets there).
    pub fn vertex(&self, i: usize) -> [f32; 3] {
        self.vec3(Table::Vertices, i)
    }

    fn vec3(&self, table: Table, i: usize) -> [f32; 3] {
        self.words::<3>(table, i).map(f32::from_bits)
    }

    fn word(&self, table: Table, i: usize) -> u32 {
        let [word] = self.words::<1>(table, i);
        word
    }

    /// Vertex indices of face `i`.
    pub fn face(&self, i: usize) -> [u32; 3] {
        self.words::<3>(Table::Faces, i)
    }

    /// Material code of face `i`.
    pub fn material(&self, i: usize) -> u32 {
        self.word(Table::Materials, i)
    }

    /// Stored normal of face `i`.
    pub fn normal(&self, i: usize) -> [f32; 3] {
        self.vec3(Table::Normals, i)
    }

    /// Stored plane distance of face `i`.
    pub fn distance(&self, i: usize) -> f32 {
        f32::from_bits(self.word(Table::Distances, i))
    }

    /// AABB node `i`.
    pub fn aabb(&self, i: usize) -> AabbNode {
        let [x0, y0, z0, x1, y1, z1, face, unknown, plane, first, second] =
            self.words::<11>(Table::Aabb, i);
        AabbNode {
            min: [x0, y0, z0].map(f32::from_bits),
            max: [x1, y1, z1].map(f32::from_bits),
            face: face as i32,
            unknown,
            plane,
            first,
            second,
        }
    }

    /// Adjacency row `i`.
    pub fn adjacency(&self, i: usize) -> [i32; 3] {
        self.words::<3>(Table::Adjacency, i).map(|w| w as i32)
    }

    /// Edge entry `i`: (3·face + edge, transition).
    pub fn edge(&self, i: usize) -> (u32, i32) {
        let [index, transition] = self.words::<2>(Table::Edges, i);
        (index, transition as i32)
    }

    /// Perimeter entry `i` (cumulative loop end).
    pub fn perimeter(&self, i: usize) -> u32 {
        self.word(Table::Perimeters, i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `RawBwm::span` indexes `spans` by the variant's number.
    #[test]
    fn spans_are_in_table_order() {
        for (index, table) in Table::ALL.into_iter().enumerate() {
            assert_eq!(table as usize, index, "{}", table.name());
        }
    }
}
