meta:
  id: bwm
  title: KotOR BWM V1.0 walkmesh (.wok, .pwk, .dwk)
  file-extension: [wok, pwk, dwk]
  endian: le
doc: |
  Written for walkmesh (`walkmesh spec bwm`) from the field layout its BWM reader and dumper use
  (formats/bwm/src/layout.rs); checked in CI by compiling it to Python and parsing every shared
  corpus BWM to the values `walkmesh dump --format json` shows (.ci/peers/kaitai.sh).
  Field names match the paths of `walkmesh dump --format flat`. Tables are read where the
  header's offsets point, so files whose tables are not in the usual order parse too.
seq:
  - id: header
    type: header
    doc: "The 136-byte header: type, use points, position, and each table's count and offset."
instances:
  vertices:
    doc: Vertex positions (x, y, z).
    pos: header.vertex_offset
    type: vec3
    repeat: expr
    repeat-expr: header.vertex_count
  faces:
    doc: Three vertex indices per face.
    pos: header.face_offset
    type: face
    repeat: expr
    repeat-expr: header.face_count
  materials:
    doc: Surface material code per face (walkable or not by the game's surfacemat.2da).
    pos: header.material_offset
    type: u4
    repeat: expr
    repeat-expr: header.face_count
  normals:
    doc: Unit normal per face.
    pos: header.normal_offset
    type: vec3
    repeat: expr
    repeat-expr: header.face_count
  distances:
    doc: Plane distance per face (-normal . vertex).
    pos: header.distance_offset
    type: f4
    repeat: expr
    repeat-expr: header.face_count
  aabb:
    doc: AABB tree nodes (area walkmeshes only).
    pos: header.aabb_offset
    type: aabb_node
    repeat: expr
    repeat-expr: header.aabb_count
  adjacency:
    doc: Per walkable face, the neighbour across each edge as 3*face+edge, or -1.
    pos: header.adjacency_offset
    type: adjacency_row
    repeat: expr
    repeat-expr: header.adjacency_count
  edges:
    doc: Perimeter edges (area walkmeshes only).
    pos: header.edge_offset
    type: edge
    repeat: expr
    repeat-expr: header.edge_count
  perimeters:
    doc: For each perimeter loop, one past the index of its last edge.
    pos: header.perimeter_offset
    type: u4
    repeat: expr
    repeat-expr: header.perimeter_count
types:
  vec3:
    seq:
      - id: x
        type: f4
        doc: X.
      - id: y
        type: f4
        doc: Y.
      - id: z
        type: f4
        doc: Z.
  header:
    seq:
      - id: magic
        contents: "BWM "
        doc: File magic.
      - id: version
        contents: "V1.0"
        doc: Format version.
      - id: type
        type: u4
        doc: 1 area (.wok), 0 placeable or door (.pwk, .dwk).
      - id: relative_use1
        type: vec3
        doc: First use point relative to the object (doors and placeables).
      - id: relative_use2
        type: vec3
        doc: Second use point relative to the object.
      - id: absolute_use1
        type: vec3
        doc: First use point in world space.
      - id: absolute_use2
        type: vec3
        doc: Second use point in world space.
      - id: position
        type: vec3
        doc: Position of the walkmesh (0 for rooms).
      - id: vertex_count
        type: u4
        doc: Number of vertices.
      - id: vertex_offset
        type: u4
        doc: Offset of the vertex table.
      - id: face_count
        type: u4
        doc: Number of faces (also of materials, normals, distances).
      - id: face_offset
        type: u4
        doc: Offset of the face table.
      - id: material_offset
        type: u4
        doc: Offset of the material table.
      - id: normal_offset
        type: u4
        doc: Offset of the normal table.
      - id: distance_offset
        type: u4
        doc: Offset of the plane distance table.
      - id: aabb_count
        type: u4
        doc: Number of AABB nodes.
      - id: aabb_offset
        type: u4
        doc: Offset of the AABB nodes.
      - id: aabb_root
        type: u4
        doc: Root node index (0 in game files).
      - id: adjacency_count
        type: u4
        doc: Number of adjacency rows (walkable faces).
      - id: adjacency_offset
        type: u4
        doc: Offset of the adjacency table.
      - id: edge_count
        type: u4
        doc: Number of perimeter edges.
      - id: edge_offset
        type: u4
        doc: Offset of the edge table.
      - id: perimeter_count
        type: u4
        doc: Number of perimeter loops.
      - id: perimeter_offset
        type: u4
        doc: Offset of the perimeter table.
  face:
    seq:
      - id: vertices
        type: u4
        repeat: expr
        repeat-expr: 3
        doc: Vertex indices.
  aabb_node:
    seq:
      - id: min
        type: vec3
        doc: Box minimum.
      - id: max
        type: vec3
        doc: Box maximum.
      - id: face
        type: s4
        doc: Face of a leaf; -1 for an inner node.
      - id: unknown
        type: u4
        doc: Always 4 in game files; meaning unknown.
      - id: plane
        type: u4
        doc: Split axis flags (1 +X, 2 +Y, 4 +Z, 8 -X, 16 -Y, 32 -Z); 0 for a leaf.
      - id: first
        type: s4
        doc: First child node; -1 for a leaf.
      - id: second
        type: s4
        doc: Second child node; -1 for a leaf.
  adjacency_row:
    seq:
      - id: neighbours
        type: s4
        repeat: expr
        repeat-expr: 3
        doc: Neighbour across edges 0, 1, 2 as 3*face+edge; -1 for none.
  edge:
    seq:
      - id: index
        type: u4
        doc: The perimeter edge as 3*face+edge.
      - id: transition
        type: s4
        doc: Door or room transition id; -1 for none.
