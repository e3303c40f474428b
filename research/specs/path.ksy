meta:
  id: prime_path
  title: Metroid Prime PATH area pathfinding file (versions 4, 6, 7)
  file-extension: path
  endian: be
doc: |
  Written for walkmesh (`walkmesh spec path`) from the layout its PATH reader parses
  (formats/prime/src/model.rs): version 4 is Metroid Prime, 6 Echoes, 7 Corruption. Checked in
  CI by compiling it to Python and parsing PATH files of every version to the values
  `walkmesh dump --format json` shows (.ci/peers/kaitai.sh). Field names match the paths of
  `walkmesh dump --format flat`. All sections follow each other with no offsets.
seq:
  - id: version
    type: u4
    doc: 4 Metroid Prime, 6 Echoes, 7 Corruption.
    valid:
      any-of: [4, 6, 7]
  - id: node_count
    type: u4
    doc: Number of nodes.
  - id: nodes
    type: node
    repeat: expr
    repeat-expr: node_count
    doc: "Nodes: points on region edges and centres."
  - id: link_count
    type: u4
    doc: Number of links.
  - id: links
    type: link
    repeat: expr
    repeat-expr: link_count
    doc: Links between neighbouring regions.
  - id: region_count
    type: u4
    doc: Number of regions (N).
  - id: regions
    type: region
    repeat: expr
    repeat-expr: region_count
    doc: "Regions: convex walkable polygons."
  - id: ground_bits
    type: u4
    repeat: expr
    repeat-expr: bitset_words
    doc: Ground "path exists" bits, one per region pair (i < j), row-major upper triangle.
  - id: flyer_bits
    type: u4
    repeat: expr
    repeat-expr: bitset_words
    doc: Flyer "path exists" bits, same layout as ground_bits.
  - id: reserved
    type: u4
    repeat: expr
    repeat-expr: reserved_words
    doc: Zero words after the bit tables, (ceil(N*N/32) - W) * 2 of them (versions 4 and 6 only).
  - id: octree_lookup_count
    type: u4
    doc: Number of region indices in the octree lookup.
  - id: octree_lookup
    type: u4
    repeat: expr
    repeat-expr: octree_lookup_count
    doc: Region indices that octree leaves point into.
  - id: octree_count
    type: u4
    doc: Number of octree nodes (root last).
  - id: octree
    type: octree_node
    repeat: expr
    repeat-expr: octree_count
    doc: Octree nodes over the regions.
  - id: point_graph
    type: point_graph
    if: version == 6
    doc: Echoes only; what it is for is not known.
  - id: trailing
    size-eos: true
    doc: Bytes after the last section (cooker padding).
instances:
  bitset_words:
    value: '(region_count * (region_count == 0 ? 0 : region_count - 1) / 2 + 31) / 32'
    doc: W = ceil(N*(N-1)/2 / 32).
  reserved_words:
    value: 'version < 7 ? ((region_count * region_count + 31) / 32 - bitset_words) * 2 : 0'
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
  node:
    seq:
      - id: position
        type: vec3
        doc: Node position (on a region's edge or at its centre).
      - id: normal
        type: vec3
        doc: Node normal (edge direction).
  link:
    seq:
      - id: node
        type: u4
        doc: Node index the link goes through.
      - id: region
        type: u4
        doc: Region on the other side.
      - id: width_2d
        type: f4
        doc: Width of the shared edge in the horizontal plane.
      - id: inv_width_2d
        type: f4
        doc: 1 / width_2d.
  region:
    seq:
      - id: node_count
        type: u4
        doc: Nodes of the region.
      - id: node_start
        type: u4
        doc: First node index.
      - id: link_count
        type: u4
        doc: Links of the region.
      - id: link_start
        type: u4
        doc: First link index.
      - id: index_mask
        type: u2
        doc: Mask of region classes (meaning partly unknown).
      - id: type_mask
        type: u2
        doc: Surface type bits.
      - id: height
        type: f4
        doc: Height above the region at which it is entered.
      - id: normal
        type: vec3
        doc: Region plane normal.
      - id: index
        type: u4
        doc: The region's own index.
      - id: centroid
        type: vec3
        doc: Region centre.
      - id: aabb_min
        type: vec3
        doc: Bounding box minimum.
      - id: aabb_max
        type: vec3
        doc: Bounding box maximum.
      - id: obstruction
        type: u4
        repeat: expr
        repeat-expr: 3
        if: _root.version >= 6
        doc: Three obstruction counters (versions 6 and 7); believed to be runtime state.
      - id: scratch
        type: u4
        doc: Believed to be a runtime scratch word; what files store there is not settled.
  octree_node:
    seq:
      - id: is_leaf
        type: u4
        doc: 1 for a leaf, 0 for an inner node.
      - id: aabb_min
        type: vec3
        doc: Box minimum.
      - id: aabb_max
        type: vec3
        doc: Box maximum.
      - id: center
        type: vec3
        doc: Box centre.
      - id: children
        type: u4
        repeat: expr
        repeat-expr: 8
        doc: Child node indices; 0xffffffff (bit 31 set) for none.
      - id: region_count
        type: u4
        doc: Regions of a leaf in octree_lookup.
      - id: region_start
        type: u4
        doc: First index into octree_lookup.
  point_graph:
    seq:
      - id: point_count
        type: u4
        doc: Number of points.
      - id: points
        type: point
        repeat: expr
        repeat-expr: point_count
        doc: Echoes point-graph points.
      - id: target_count
        type: u4
        if: point_count > 0
        doc: Number of link targets.
      - id: targets
        type: u4
        repeat: expr
        repeat-expr: target_count
        if: point_count > 0
        doc: Point indices that links point to.
      - id: cost_count
        type: u4
        if: point_count > 0
        doc: Number of link costs.
      - id: costs
        type: u4
        repeat: expr
        repeat-expr: cost_count
        if: point_count > 0
        doc: Link costs (encoding not known).
      - id: reachability
        type: u4
        repeat: expr
        repeat-expr: '(point_count * (point_count == 0 ? 0 : point_count - 1) / 2 + 31) / 32'
        if: point_count > 0
        doc: Point-pair "reachable" bits, as ground_bits.
  point:
    seq:
      - id: position
        type: vec3
        doc: Point position.
      - id: flags
        type: u4
        doc: Meaning not known.
      - id: link_count
        type: u4
        doc: Links of the point.
      - id: link_start
        type: u4
        doc: First link of the point in targets.
      - id: cost_start
        type: u4
        doc: First cost of the point in costs.
