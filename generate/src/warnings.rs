//! The generation's lossy steps as warnings with stable codes, so the command line, Python
//! and Blender tell a person the same thing: floor left out (unreachable or too small), seeds
//! on no floor, outline edges the triangulation could not keep.

use walkmesh_core::Diagnostics;

use crate::Report;

impl Report {
    /// Adds a warning to `diag` for every lossy step this generation took.
    pub fn warn_lossy_steps(&self, diag: &mut Diagnostics) {
        let (mut unreachable, mut small) = ((0usize, 0f64), (0usize, 0f64));
        for piece in &self.dropped {
            let tally = if piece.reason == "small" {
                &mut small
            } else {
                &mut unreachable
            };
            tally.0 += 1;
            tally.1 += piece.area;
        }
        if unreachable.0 > 0 {
            diag.warn(
                "generate.unreachable_dropped",
                format!(
                    "{} walkable piece(s), {:.2} m², are not reachable from the seeds and were left out (the report lists where); --keep-unreachable keeps them",
                    unreachable.0, unreachable.1
                ),
            );
        }
        if small.0 > 0 {
            diag.warn(
                "generate.small_dropped",
                format!(
                    "{} walkable piece(s), {:.2} m², are smaller than --min-region-area and were left out",
                    small.0, small.1
                ),
            );
        }
        if self.narrow_area > 0.0 {
            diag.warn(
                "generate.narrow_dropped",
                format!(
                    "{:.2} m² of walkable floor is narrower than --min-passage-width ({} m) everywhere and was left out, with or without --keep-unreachable; a lower --min-passage-width keeps it",
                    self.narrow_area, self.params.min_passage_width
                ),
            );
        }
        for seed in &self.seeds_missed {
            diag.warn(
                "generate.seed_missed",
                format!(
                    "the seed ({}, {}, {}) is on no walkable floor and reaches nothing",
                    seed[0], seed[1], seed[2]
                ),
            );
        }
        #[cfg(feature = "nwn2")]
        if let Some(simplified) = &self.nwn2_simplified {
            diag.warn(crate::report::SIMPLIFIED, simplified.message());
        }
        for limit in &self.limits {
            diag.warn(limit.code, limit.message.clone());
        }
        if self.skipped_edges > 0 {
            diag.warn(
                "generate.outline_edges_skipped",
                format!(
                    "{} outline edge(s) crossed another and were left out of the triangulation; the faces still follow the walkable cells",
                    self.skipped_edges
                ),
            );
        }
    }
}
