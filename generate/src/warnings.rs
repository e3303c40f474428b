//! The generation's lossy steps as warnings with stable codes, so the command line, Python
//! and Blender tell a person the same thing: floor left out (unreachable or too small), seeds
//! on no floor, outline edges the triangulation could not keep, passages the agent fits that
//! the cells are too coarse to keep open.

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
        if let Some(message) = self.params.unresolved_passages() {
            diag.warn("generate.passage_unresolved", message);
        }
        if self
            .object
            .as_ref()
            .is_some_and(|o| o.kind == crate::ObjectKind::Door)
        {
            diag.warn(
                "generate.door_open_states_not_generated",
                "only the door's closed state is generated (the slab across the frame the panel fills); the open states a game door also has (BioWare's <door>1.dwk and <door>2.dwk) are not generated",
            );
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

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use crate::{Engine, Params};

    /// Issue #50: a 0.35 m gap passable at radius 0 closed in the NWN2 and Prime presets
    /// (0.2 and 0.3 m cells) and the floor beyond was dropped without a word: cells resolve
    /// passages of two cells and wider only, and the report now says so when the agent fits
    /// narrower ones.
    #[test]
    fn passages_finer_than_two_cells_are_said_to_be_unresolved() {
        let mut params = Params::preset(Engine::Nwn2);
        assert_eq!(params.unresolved_passages(), None);
        params.agent_radius = 0.0;
        params.min_passage_width = 0.0;
        let message = params.unresolved_passages().unwrap();
        assert!(message.contains("0.4 m"), "{message}");
        assert!(message.contains("--cell-size 0.1"), "{message}");
        // The KotOR preset's 0.1 m cells resolve its 0.8 m passage width.
        assert_eq!(Params::preset(Engine::Kotor).unresolved_passages(), None);
        let mut prime = Params::preset(Engine::Prime);
        prime.agent_radius = 0.0;
        prime.min_passage_width = 0.35;
        assert!(prime.unresolved_passages().is_some());
    }
}
