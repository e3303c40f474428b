meta:
  id: aswm
  title: NWN2 ASWM walkmesh body (the inflated ASWM packet of a .trx/.trn)
  file-extension: aswm
  endian: le
doc: |
  Written for walkmesh (`walkmesh spec aswm`) from the layout its ASWM reader parses
  (formats/nwn2/src/aswm.rs), versions 0x69 to 0x6c. This is the body inside the packet's COMP
  header and zlib stream: `walkmesh dump file.trx --extract aswm-body -o body.aswm` writes it,
  and the offsets of `walkmesh dump --format flat` inside aswm-body are offsets in it. Checked in
  CI by compiling it to Python and parsing the body of every shared corpus TRX/TRN to the values
  `walkmesh dump --format json` shows (.ci/peers/kaitai.sh); the corpus holds version 0x6c only,
  so the 0x69 to 0x6b branches follow the reader but are not checked against game files.
  Field names match the paths of `walkmesh dump --format flat` (`aswm.` dropped).
seq:
  - id: header
    type: header
    doc: The 53-byte header.
  - id: vertices
    type: vec3
    repeat: expr
    repeat-expr: header.vertex_count
    doc: Vertex positions.
  - id: edges
    type: edge
    repeat: expr
    repeat-expr: header.edge_count
    doc: "The tile's own edges."
  - id: triangles
    type: triangle
    repeat: expr
    repeat-expr: header.triangle_count
    doc: Triangles.
  - id: tiles_header
    type: tiles_header
    doc: The tile grid.
  - id: tiles
    type: tile
    repeat: expr
    repeat-expr: tiles_header.grid_height * tiles_header.grid_width
    doc: Tiles, row by row.
  - id: border
    type: u4
    doc: Meaning not known; 0 in every corpus file.
  - id: island_count
    type: u4
    doc: Number of islands (connected walkable parts per tile).
  - id: islands
    type: island
    repeat: expr
    repeat-expr: island_count
    doc: "Islands: connected walkable parts of a tile."
  - id: island_paths
    type: island_path
    repeat: expr
    repeat-expr: island_count * island_count
    doc: Island-to-island next hops, island_count rows of island_count entries.
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
      - id: version
        type: u4
        valid:
          min: 0x69
          max: 0x6c
        doc: Layout version, 0x69 to 0x6c (the toolset writes 0x6c).
      - id: name
        size: 32
        doc: Name, NUL-padded (usually empty).
      - id: owns_data
        type: u1
        doc: 1 when the walkmesh holds its own vertices and edges (always, in game files).
      - id: vertex_count
        type: u4
        doc: Number of vertices.
      - id: edge_count
        type: u4
        doc: Number of edges.
      - id: triangle_count
        type: u4
        doc: Number of triangles.
      - id: triangles_offset
        type: u4
        doc: Meaning not known; 0 in every corpus file.
  edge:
    seq:
      - id: vertices
        type: u4
        repeat: expr
        repeat-expr: 2
        doc: The edge's two vertices.
      - id: triangles
        type: s4
        repeat: expr
        repeat-expr: 2
        doc: The triangles on either side; -1 for none.
      - id: unknown
        size: 36
        if: _root.header.version == 0x69
        doc: Version 0x69 only; not decoded.
  triangle:
    seq:
      - id: unknown_head
        size: 4
        if: _root.header.version == 0x69 or _root.header.version == 0x6a
        doc: Versions 0x69 and 0x6a; not decoded.
      - id: flags_69
        type: u4
        if: _root.header.version == 0x69
        doc: Version 0x69's flags word (the low 16 bits are the flags).
      - id: vertices
        type: u4
        repeat: expr
        repeat-expr: 3
        doc: The triangle's three vertices.
      - id: linked_edges
        type: s4
        repeat: expr
        repeat-expr: 3
        doc: The edges of its sides; -1 for none.
      - id: linked_triangles
        type: s4
        repeat: expr
        repeat-expr: 3
        doc: The neighbours across its sides; -1 for none.
      - id: unknown_69
        size: 12
        if: _root.header.version == 0x69
        doc: Version 0x69 only; not decoded.
      - id: centre
        type: f4
        repeat: expr
        repeat-expr: 2
        doc: Centre in the horizontal plane (x, y).
      - id: unknown_69b
        size: 4
        if: _root.header.version == 0x69
        doc: Version 0x69 only; not decoded.
      - id: normal
        type: vec3
        doc: Plane normal.
      - id: d
        type: f4
        doc: Plane distance.
      - id: unknown_69c
        size: 2
        if: _root.header.version == 0x69
        doc: Version 0x69 only; not decoded.
      - id: island
        type: u2
        doc: The island the triangle belongs to; 0xffff for none.
      - id: flags
        type: u2
        if: _root.header.version != 0x69
        doc: Walkable, clockwise, material bits.
  tiles_header:
    seq:
      - id: tiles_flags
        type: u4
        doc: Meaning not known; 31 or 15 in the corpus.
      - id: tile_width
        type: f4
        doc: Width of one tile in metres.
      - id: grid_height
        type: u4
        doc: Tile rows.
      - id: grid_width
        type: u4
        doc: Tile columns.
  tile:
    seq:
      - id: name
        size: 32
        doc: Name; in the corpus 708 of 3190 tiles hold an empty string, the rest bytes that look like leftover memory.
      - id: owns_data
        type: u1
        doc: 1 when the tile holds its own vertices and edges.
      - id: vertex_count
        type: u4
        doc: Vertices the tile owns (when owns_data).
      - id: edge_count
        type: u4
        doc: Edges the tile owns (when owns_data).
      - id: triangle_count
        type: u4
        doc: Triangles of the tile.
      - id: size_x
        type: f4
        doc: Meaning not known; 0.0 in 2838 of 3190 corpus tiles, 9.0 (the tile width) in 352.
      - id: size_y
        type: f4
        doc: Meaning not known; equal to size_x in the corpus.
      - id: triangles_offset
        type: u4
        doc: Index of the tile's first triangle.
      - id: vertices
        type: vec3
        repeat: expr
        repeat-expr: vertex_count
        if: owns_data != 0
        doc: "The tile's own vertices (0 in the corpus: no tile owns data)."
      - id: edges
        type: edge
        repeat: expr
        repeat-expr: edge_count
        if: owns_data != 0
        doc: "The tile's own edges."
      - id: path_table
        type: path_table
        doc: "The tile's path table: triangle to node, node to triangle, next hops."
      - id: flags
        type: u4
        doc: Meaning not known; 31 or 15 in the corpus, like tiles_flags.
  path_table:
    seq:
      - id: flags
        type: u4
        doc: 1 RLE, 2 zlib (neither is seen in game files nor read by walkmesh).
      - id: local_to_node_length_wide
        type: u4
        if: _root.header.version == 0x6c
        doc: "Length of local_to_node (version 0x6c: 4 bytes)."
      - id: local_to_node_length_narrow
        type: u1
        if: _root.header.version != 0x6c
        doc: "Length of local_to_node (versions before 0x6c: 1 byte)."
      - id: node_to_local_length
        type: u1
        doc: Number of path nodes n; the node table is n x n.
      - id: rle_table_size
        type: u4
        doc: Size of the RLE table (0 in game files).
      - id: local_to_node
        type: u1
        repeat: expr
        repeat-expr: local_to_node_length
        doc: Per triangle of the tile, its path node; 255 for none.
      - id: node_to_local_wide
        type: u4
        repeat: expr
        repeat-expr: node_to_local_length
        if: _root.header.version == 0x6c
        doc: Per path node, its triangle in the tile.
      - id: node_to_local_narrow
        type: u1
        repeat: expr
        repeat-expr: node_to_local_length
        if: _root.header.version == 0x6b
        doc: Per path node, its triangle in the tile (version 0x6b).
      - id: nodes
        size: node_to_local_length
        repeat: expr
        repeat-expr: node_to_local_length
        doc: Row r, column c - the next node from r towards c (bit 7 has a meaning not known).
    instances:
      local_to_node_length:
        value: '_root.header.version == 0x6c ? local_to_node_length_wide : local_to_node_length_narrow'
  island:
    seq:
      - id: index
        type: u4
        doc: The island's own index.
      - id: tile
        type: u4
        doc: Named tile by earlier notes, but no tile index in the corpus (251256334 to 717834382); meaning not known.
      - id: centre
        type: vec3
        doc: A point of the island.
      - id: triangle_count
        type: u4
        doc: Triangles of the island.
      - id: adjacent_count
        type: u4
        doc: Number of neighbouring islands.
      - id: adjacent
        type: u4
        repeat: expr
        repeat-expr: adjacent_count
        doc: Neighbouring islands.
      - id: distance_count
        type: u4
        doc: Number of distances (equal to adjacent_count in the corpus).
      - id: distances
        type: f4
        repeat: expr
        repeat-expr: distance_count
        doc: Distance to each neighbour.
      - id: exit_count
        type: u4
        doc: Number of exits (equal to adjacent_count in the corpus).
      - id: exits
        type: u4
        repeat: expr
        repeat-expr: exit_count
        doc: Exit triangles (meaning partly known).
  island_path:
    seq:
      - id: next
        type: u2
        doc: Next island on the way; 0xffff for none.
      - id: padding
        type: u2
        doc: Meaning not known; 0 in 246193 of 276425 corpus entries, 32768 and 65535 the next most common.
      - id: weight
        type: f4
        doc: Path cost.
