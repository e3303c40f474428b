//! Generation parameters and the per-engine presets.

use serde::{Deserialize, Serialize};
use walkmesh_core::material::Material;

use crate::GenerateError;

/// The game a walkmesh is generated for picks the preset: the engine a format declares
/// (`FormatDescriptor::engine`), one enum for every crate.
pub use walkmesh_core::Engine;

/// Everything the generator is told. Lengths in metres, angles in degrees, +Z up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Params {
    pub engine: Engine,
    /// Clearance a character needs above the floor.
    pub agent_height: f32,
    /// Distance kept from walls and drops (erosion); 0 lets the walkmesh reach the walls.
    pub agent_radius: f32,
    /// Highest step a character takes.
    pub max_climb: f32,
    /// Steepest floor a character walks, in degrees.
    pub max_slope: f32,
    /// Voxel column width.
    pub cell_size: f32,
    /// Voxel height step.
    pub cell_height: f32,
    /// Points on the floor a character starts from; the components holding them are kept.
    /// Empty: the largest component is the start.
    pub seeds: Vec<[f32; 3]>,
    /// Gaps narrower than this (m) do not connect floors for reachability (the floor on
    /// both sides is still written up to the walls; only what it reaches changes). 0: any gap
    /// of one cell connects.
    pub min_passage_width: f32,
    /// Components no seed reaches are kept when they come within this distance (m) of a kept
    /// floor at its level (a seam in the render floor rather than a wall); 0: off.
    pub join_gap: f32,
    /// Keep components no seed reaches.
    pub keep_unreachable: bool,
    /// The kept floor is pulled back this far (m) from walls and props (solid rising more
    /// than a climb above the floor within the agent's height), never from open edges: a
    /// doorway, a drop or the room's end keep their floor. 0: off.
    pub wall_margin: f32,
    /// Components smaller than this (m²) are dropped even when kept otherwise.
    pub min_region_area: f32,
    /// Largest distance of a simplified outline from the cell outline.
    pub max_edge_error: f32,
    /// Largest height difference between a face and the render floor under it before the
    /// face is split.
    pub detail_error: f32,
    /// Surface of walkable faces whose render material suggests none.
    pub default_material: Material,
    /// Fill the holes props cut in the walkable floor with non-walkable faces, as BioWare's
    /// KotOR room WOKs have them (`holes.rs`). KotOR preset: on.
    #[serde(default)]
    pub fill_holes: bool,
    /// Raise walls (non-walkable faces) on the walkable floor's edges where the render
    /// geometry has a wall beyond them, as BioWare's KotOR room WOKs have them (`walls.rs`);
    /// doorways and open edges get none. KotOR preset: on.
    #[serde(default)]
    pub walls: bool,
    /// Words of render material names (ASCII case ignored) that mark a surface no character
    /// starts from: never the floor chosen when no seed is given ([`crate::graph`]'s start
    /// rules). A name with `puddle` is a floor whatever else it says (BioWare's `Puddles` is
    /// walkable). Default [`NOT_FLOOR`]; empty turns the rule off.
    #[serde(default = "default_not_floor")]
    pub not_floor: Vec<String>,
    /// Memory the generation may claim, in MiB (`--max-memory`; [`crate::budget`]).
    #[serde(default = "default_max_memory")]
    pub max_memory_mib: u64,
}

/// The default [`Params::not_floor`] words: a water plane (K2's `410dxn02` has one of
/// 9,442 m² over its 2,121 m² of grass), lava, a sky dome or sky box, a void plane.
pub const NOT_FLOOR: [&str; 4] = ["water", "lava", "sky", "void"];

fn default_not_floor() -> Vec<String> {
    NOT_FLOOR.iter().map(|w| (*w).to_string()).collect()
}

fn default_max_memory() -> u64 {
    walkmesh_core::memory::default_max_memory_mib()
}

/// The finest cell (m): below a millimetre no modelled floor has detail to resolve.
const MIN_CELL: f32 = 0.001;

/// Neutral materials of the KotOR vocabulary (`core/src/material.rs` ids).
const STONE: Material = Material(4);

impl Params {
    /// The preset for `engine`; every number is overridable.
    ///
    /// * KotOR: BioWare's room walkmeshes reach walls and props, so no erosion (radius 0);
    ///   their walkable faces are 99.9 % under 20°, so the slope limit is 30°; cells of
    ///   0.1 m (a tenth of a door's width) keep the footprint within a few centimetres of
    ///   the walls. Climb 0.25 m and clearance 2.2 m measured best on the shared rooms
    ///   (docs/generate.md, "Presets"): a bench seat 0.45 m up stays out, the gaps under
    ///   2.03 m ceilings BioWare leaves out stay out, a 2.8 m corridor stays in. Passage
    ///   width 0.8 m (four half-cells; 0.6 m was three): with it the 28 kit rooms meet every
    ///   footprint bar of issue 34 (worst room 0.825), at 0.001 of mean IoU over all rooms.
    /// * NWN2: creatures keep a radius from walls in the bake; 10 m tiles (the TRX tile
    ///   grid). Numbers: Recast's human defaults scaled to NWN2's 1.8 m characters (chosen,
    ///   not measured on NWN2 files).
    /// * Prime: PATH regions are convex areas the AI walks; the format allows at most 512
    ///   (formats/prime); agent sizes are Recast's defaults (chosen, not measured).
    /// * Generic: Recast's demo defaults (cell 0.3, height 2.0, radius 0.6, climb 0.9, 45°)
    ///   except a finer 0.1 m cell height.
    pub fn preset(engine: Engine) -> Params {
        let base = Params {
            engine,
            agent_height: 2.0,
            agent_radius: 0.6,
            max_climb: 0.9,
            max_slope: 45.0,
            cell_size: 0.3,
            cell_height: 0.1,
            seeds: Vec::new(),
            keep_unreachable: false,
            min_passage_width: 1.2,
            join_gap: 0.0,
            wall_margin: 0.0,
            min_region_area: 0.5,
            max_edge_error: 0.3,
            detail_error: 0.1,
            default_material: STONE,
            fill_holes: false,
            walls: false,
            not_floor: default_not_floor(),
            max_memory_mib: default_max_memory(),
        };
        match engine {
            Engine::Kotor => Params {
                agent_height: 2.2,
                agent_radius: 0.0,
                max_climb: 0.25,
                max_slope: 30.0,
                cell_size: 0.1,
                cell_height: 0.05,
                min_region_area: 1.0,
                min_passage_width: 0.8,
                max_edge_error: 0.1,
                detail_error: 0.05,
                fill_holes: true,
                walls: true,
                ..base
            },
            Engine::Nwn2 => Params {
                agent_height: 1.8,
                agent_radius: 0.3,
                max_climb: 0.5,
                max_slope: 45.0,
                cell_size: 0.2,
                cell_height: 0.1,
                max_edge_error: 0.2,
                ..base
            },
            Engine::Prime => base,
            Engine::Generic => base,
        }
    }

    /// Refuses parameters the pipeline cannot work with.
    pub fn check(&self) -> Result<(), GenerateError> {
        let positive = [
            ("agent_height", self.agent_height),
            ("cell_size", self.cell_size),
            ("cell_height", self.cell_height),
            ("max_edge_error", self.max_edge_error),
            ("detail_error", self.detail_error),
        ];
        for (name, value) in positive {
            if !(value.is_finite() && value > 0.0) {
                return Err(GenerateError::Parameter {
                    name,
                    why: format!("{value} is not a positive number"),
                });
            }
        }
        let non_negative = [
            ("agent_radius", self.agent_radius),
            ("min_passage_width", self.min_passage_width),
            ("join_gap", self.join_gap),
            ("wall_margin", self.wall_margin),
            ("max_climb", self.max_climb),
            ("min_region_area", self.min_region_area),
        ];
        for (name, value) in non_negative {
            if !(value.is_finite() && value >= 0.0) {
                return Err(GenerateError::Parameter {
                    name,
                    why: format!("{value} is not zero or a positive number"),
                });
            }
        }
        if !(self.max_slope.is_finite() && (0.0..90.0).contains(&self.max_slope)) {
            return Err(GenerateError::Parameter {
                name: "max_slope",
                why: format!("{}° is not in 0..90", self.max_slope),
            });
        }
        for (name, value) in [
            ("cell_size", self.cell_size),
            ("cell_height", self.cell_height),
        ] {
            if value < MIN_CELL {
                return Err(GenerateError::Parameter {
                    name,
                    why: format!(
                        "{} m is finer than {MIN_CELL} m: render geometry is modelled to the millimetre at best",
                        crate::budget::number(value)
                    ),
                });
            }
        }
        self.check_steps()?;
        if self.cell_size > self.agent_height {
            return Err(GenerateError::Parameter {
                name: "cell_size",
                why: format!(
                    "{} m cells are wider than the {} m agent is tall: cells that coarse cannot outline a doorway it walks through",
                    crate::budget::number(self.cell_size),
                    self.agent_height
                ),
            });
        }
        if self.max_memory_mib == 0 {
            return Err(GenerateError::Parameter {
                name: "max_memory",
                why: "0 MiB is no memory limit: give a whole number of MiB above 0".into(),
            });
        }
        if let Some(seed) = self.seeds.iter().find(|s| s.iter().any(|c| !c.is_finite())) {
            return Err(GenerateError::Parameter {
                name: "seeds",
                why: format!("{seed:?} is not a finite point"),
            });
        }
        Ok(())
    }

    /// Refuses heights more cell-height steps than span levels count exactly (2^24: they are
    /// computed in `f32`), naming the height and the step.
    fn check_steps(&self) -> Result<(), GenerateError> {
        const MAX_STEPS: f64 = 16_777_216.0;
        let heights = [
            ("agent_height", self.agent_height),
            ("max_climb", self.max_climb),
        ];
        for (name, value) in heights {
            let steps = f64::from(value) / f64::from(self.cell_height);
            if steps > MAX_STEPS {
                return Err(GenerateError::Parameter {
                    name,
                    why: format!(
                        "{} m is {steps:.3e} steps of the {} m cell height; at most {MAX_STEPS} fit a span level: give a smaller {name} or a larger cell_height",
                        crate::budget::number(value),
                        self.cell_height
                    ),
                });
            }
        }
        Ok(())
    }

    /// A sentence when the agent fits passages narrower than the cells resolve: a gap is kept
    /// open only when at least two whole cells of it are free of the walls on both sides, so
    /// a passage narrower than two cells may close, and the floor beyond it be dropped as
    /// unreachable. The agent fits a passage as wide as its width (twice the radius) or
    /// `min_passage_width`, whichever is wider.
    pub fn unresolved_passages(&self) -> Option<String> {
        let fits = (2.0 * self.agent_radius).max(self.min_passage_width);
        let resolved = 2.0 * self.cell_size;
        (fits < resolved).then(|| {
            format!(
                "the agent fits passages {fits} m wide, but {} m cells keep open only passages {resolved} m wide or wider: narrower gaps may close and the floor beyond them be left out; cells half as wide as the narrowest gap keep it open (--cell-size {} keeps {} m gaps)",
                self.cell_size,
                self.cell_size / 2.0,
                self.cell_size
            )
        })
    }

    /// Whether a render material name marks a surface no character starts from.
    pub fn names_no_floor(&self, name: &str) -> bool {
        let lower = name.to_ascii_lowercase();
        !lower.contains("puddle")
            && self
                .not_floor
                .iter()
                .any(|word| !word.is_empty() && lower.contains(&word.to_ascii_lowercase()))
    }

    /// Clearance in cells (rounded up: a character never fits in less than it needs).
    pub(crate) fn height_cells(&self) -> i32 {
        (self.agent_height / self.cell_height).ceil() as i32
    }

    /// Climb in cells (rounded down).
    pub(crate) fn climb_cells(&self) -> i32 {
        (self.max_climb / self.cell_height).floor() as i32
    }

    /// The most levels a floor within the slope limit rises from one cell to the next (one
    /// more for the rounding of voxel tops); a larger rise between neighbours is a step.
    pub(crate) fn step_levels(&self) -> i32 {
        let rise = self.max_slope.to_radians().tan() * self.cell_size;
        (rise / self.cell_height).floor() as i32 + 1
    }

    /// Half the passage width in cells (rounded up).
    pub(crate) fn passage_cells(&self) -> i32 {
        (self.min_passage_width / 2.0 / self.cell_size).ceil() as i32
    }

    /// Wall margin in cells (rounded to the nearest: the margin is measured between cell
    /// centres and the wall's column).
    pub(crate) fn wall_margin_cells(&self) -> i32 {
        (self.wall_margin / self.cell_size).round() as i32
    }

    /// Erosion radius in cells (rounded up).
    pub(crate) fn radius_cells(&self) -> i32 {
        (self.agent_radius / self.cell_size).ceil() as i32
    }
}
