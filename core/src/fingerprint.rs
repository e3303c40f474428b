//! A stable 64-bit fingerprint of a mesh's authored data.
//!
//! Used to decide whether preserved derived sections still belong to the mesh. The hash only
//! has to be stable within one build of the program (it is never written to a file), but it
//! is deterministic across runs and platforms anyway: no random keys, little-endian words.

use crate::ir::{Attribute, Extra, NavMesh};

// The method lives here, not in `ir`, so that `ir` does not depend on this module (which
// reads every field of `ir`'s types).
impl NavMesh {
    /// Stable hash of the authored data (see the module docs).
    pub fn fingerprint(&self) -> u64 {
        authored_fingerprint(self)
    }
}

/// A small multiply-rotate hasher over 64-bit words (FxHash-like mixing plus a final avalanche).
#[derive(Debug, Clone)]
pub struct StableHasher {
    state: u64,
}

impl Default for StableHasher {
    fn default() -> Self {
        StableHasher {
            state: 0x243f_6a88_85a3_08d3,
        }
    }
}

impl StableHasher {
    const MULTIPLIER: u64 = 0x9e37_79b9_7f4a_7c15;

    /// Mixes one word in.
    pub fn word(&mut self, value: u64) {
        self.state = (self.state.rotate_left(5) ^ value).wrapping_mul(Self::MULTIPLIER);
    }

    /// Mixes a byte string in, with its length so that concatenations differ.
    pub fn bytes(&mut self, bytes: &[u8]) {
        self.word(bytes.len() as u64);
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.word(u64::from_le_bytes(word));
        }
        let mut tail = [0u8; 8];
        for (slot, byte) in tail.iter_mut().zip(chunks.remainder()) {
            *slot = *byte;
        }
        self.word(u64::from_le_bytes(tail));
    }

    /// The fingerprint so far.
    pub fn finish(&self) -> u64 {
        // splitmix64 finaliser: spreads the last words over all bits.
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

fn point(hasher: &mut StableHasher, p: &[f32; 3]) {
    hasher.word(u64::from(p[0].to_bits()) | (u64::from(p[1].to_bits()) << 32));
    hasher.word(u64::from(p[2].to_bits()));
}

/// Fingerprint of everything authored in `mesh` (not its provenance).
pub fn authored_fingerprint(mesh: &NavMesh) -> u64 {
    let mut h = StableHasher::default();
    h.bytes(mesh.kind.as_str().as_bytes());
    h.word(mesh.vertices.len() as u64);
    for v in &mesh.vertices {
        point(&mut h, v);
    }
    h.word(mesh.polygons.len() as u64);
    for polygon in mesh.polygons.iter() {
        h.word(polygon.len() as u64);
        for &index in polygon {
            h.word(u64::from(index));
        }
    }
    for surface in &mesh.surfaces {
        h.word(
            u64::from(surface.material.0)
                | (u64::from(surface.walkable) << 16)
                | (u64::from(surface.code) << 32),
        );
    }
    h.word(mesh.edge_tags.len() as u64);
    for (edge, tag) in &mesh.edge_tags {
        h.word(u64::from(edge.polygon) | (u64::from(edge.edge) << 32));
        h.word(tag.transition as u32 as u64);
    }
    h.word(mesh.face_attributes.len() as u64);
    for (name, column) in &mesh.face_attributes {
        h.bytes(name.as_bytes());
        match column {
            Attribute::Int(values) => {
                h.word(1);
                values.iter().for_each(|&v| h.word(v as u64));
            }
            Attribute::Float(values) => {
                h.word(2);
                values.iter().for_each(|&v| h.word(u64::from(v.to_bits())));
            }
        }
    }
    point(&mut h, &mesh.origin);
    h.word(mesh.hooks.len() as u64);
    for hook in &mesh.hooks {
        h.bytes(hook.name.as_bytes());
        point(&mut h, &hook.position);
    }
    match &mesh.tile_grid {
        None => h.word(0),
        Some(grid) => {
            h.word(1);
            h.word(u64::from(grid.columns) | (u64::from(grid.rows) << 32));
            h.word(
                u64::from(grid.tile_width.to_bits())
                    | (u64::from(grid.tile_height.to_bits()) << 32),
            );
            h.word(
                u64::from(grid.origin[0].to_bits()) | (u64::from(grid.origin[1].to_bits()) << 32),
            );
        }
    }
    h.word(mesh.extras.len() as u64);
    for (name, value) in &mesh.extras {
        h.bytes(name.as_bytes());
        match value {
            Extra::Int(v) => {
                h.word(1);
                h.word(*v as u64);
            }
            Extra::Float(v) => {
                h.word(2);
                h.word(v.to_bits());
            }
            Extra::Text(v) => {
                h.word(3);
                h.bytes(v.as_bytes());
            }
            Extra::TextList(v) => {
                h.word(4);
                h.word(v.len() as u64);
                v.iter().for_each(|s| h.bytes(s.as_bytes()));
            }
            Extra::Floats(v) => {
                h.word(5);
                h.word(v.len() as u64);
                v.iter().for_each(|f| h.word(u64::from(f.to_bits())));
            }
            Extra::Bytes(v) => {
                h.word(6);
                h.bytes(v);
            }
        }
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_strings_of_different_length_differ() {
        let mut a = StableHasher::default();
        a.bytes(b"ab");
        let mut b = StableHasher::default();
        b.bytes(b"ab\0");
        assert_ne!(a.finish(), b.finish());
    }

    #[test]
    fn sign_of_zero_counts() {
        // -0.0 and 0.0 are different authored bits and must not share a fingerprint.
        let mut a = NavMesh::default();
        a.vertices.push([0.0, 0.0, 0.0]);
        let mut b = NavMesh::default();
        b.vertices.push([-0.0, 0.0, 0.0]);
        assert_ne!(a.fingerprint(), b.fingerprint());
    }
}
