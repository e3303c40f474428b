//! What generation may take: the memory of each stage, estimated before it is allocated and
//! refused above the limit (`--max-memory`), and the ranges a scene and the parameters must
//! stay in for 32-bit cells to describe them (a float must resolve a tenth of a cell
//! wherever the scene reaches; that also bounds the cell and step counts per axis).
//!
//! Memory is counted as the stages allocate it, largest first: the grid's columns (known from
//! the extent before anything is allocated), every column's spans as they grow (checked before
//! each growth, so a scene whose triangles pile up spans is stopped at the span that would pass
//! the limit, not after), then the walkable graph and what follows it, sized from the walkable
//! span count. The figures are upper bounds of what this code allocates (a vector's capacity,
//! not its length), so an estimate under the limit keeps the process under it too; the
//! estimate is reported (`Report::memory_estimate`).

use walkmesh_core::memory::OPTION;

use crate::GenerateError;

const MIB: u64 = 1024 * 1024;

/// The memory limit and what the stages have claimed so far.
#[derive(Clone, Debug)]
pub struct Budget {
    limit: u64,
    used: u64,
}

impl Budget {
    /// A budget of `limit_mib` MiB.
    pub fn new(limit_mib: u64) -> Budget {
        Budget {
            limit: limit_mib.saturating_mul(MIB),
            used: 0,
        }
    }

    /// Claims `bytes` more for `stage`, or refuses (nothing of the claim allocated yet).
    pub fn claim(&mut self, stage: &'static str, bytes: u64) -> Result<(), GenerateError> {
        let total = self.used.saturating_add(bytes);
        if total > self.limit {
            return Err(GenerateError::Memory {
                stage,
                estimate_mib: total.div_ceil(MIB),
                limit_mib: self.limit / MIB,
                option: OPTION,
            });
        }
        self.used = total;
        Ok(())
    }

    /// Bytes claimed so far.
    pub fn used(&self) -> u64 {
        self.used
    }
}

/// What `mesh` holds in memory (the render geometry stays alive through the generation):
/// positions, polygon corners and starts, surfaces and a word per face per attribute column.
pub fn mesh_bytes(mesh: &walkmesh_core::NavMesh) -> u64 {
    let faces = mesh.polygons.len();
    let corners: usize = mesh.polygons.iter().map(<[u32]>::len).sum();
    bytes_of::<[f32; 3]>(mesh.vertices.len())
        .saturating_add(bytes_of::<u32>(faces + 1 + corners))
        .saturating_add(bytes_of::<walkmesh_core::material::Surface>(faces))
        .saturating_add(bytes_of::<u64>(faces).saturating_mul(mesh.face_attributes.len() as u64))
}

/// Bytes of `count` values of `T`.
pub(crate) fn bytes_of<T>(count: usize) -> u64 {
    (count as u64).saturating_mul(std::mem::size_of::<T>() as u64)
}

/// How finely a 32-bit float must resolve positions: a tenth of a cell. Beyond the
/// coordinate where its step is coarser, two floor points a cell apart can round onto one.
const CELLS_PER_STEP: f32 = 10.0;

/// The input's extent and its farthest corner (for the messages).
#[derive(Clone, Copy, Debug)]
pub struct Extent {
    pub lo: [f32; 3],
    pub hi: [f32; 3],
    /// The corner with the largest coordinate magnitude.
    pub farthest: [f32; 3],
}

impl Extent {
    /// The extent of `corners` (finite values only reach here: the source drops the rest);
    /// `None` for no corner.
    pub fn of<'a>(corners: impl Iterator<Item = &'a [f32; 3]>) -> Option<Extent> {
        let mut extent: Option<Extent> = None;
        let magnitude = |c: &[f32; 3]| c.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        for c in corners {
            let e = extent.get_or_insert(Extent {
                lo: *c,
                hi: *c,
                farthest: *c,
            });
            for ((lo, hi), v) in e.lo.iter_mut().zip(e.hi.iter_mut()).zip(c) {
                *lo = lo.min(*v);
                *hi = hi.max(*v);
            }
            if magnitude(c) > magnitude(&e.farthest) {
                e.farthest = *c;
            }
        }
        extent
    }

    /// Refuses a scene 32-bit cells cannot describe: coordinates so large that floats there
    /// step more than a tenth of a cell (plan) or of a height step. This also bounds every
    /// axis to under 2^24 cells or steps, so cell indices and span levels stay exact.
    pub fn check(&self, cell_size: f32, cell_height: f32) -> Result<(), GenerateError> {
        let [x, y, z] = self.farthest;
        let plan = x.abs().max(y.abs());
        let step = float_step(plan);
        if step > cell_size / CELLS_PER_STEP {
            return Err(self.range(format!(
                "a corner lies at ({}, {}, {}); at {} m from the origin 32-bit floats step {} m, coarser than a tenth of the {cell_size} m cells: move the geometry near the origin, or remove the stray vertex",
                number(x),
                number(y),
                number(z),
                number(plan),
                number(step)
            )));
        }
        let step = float_step(z);
        if step > cell_height / CELLS_PER_STEP {
            return Err(self.range(format!(
                "a corner lies at height {} m; there 32-bit floats step {} m, coarser than a tenth of the {cell_height} m cell height: move the geometry near the origin, or remove the stray vertex",
                number(z),
                number(step)
            )));
        }
        Ok(())
    }

    fn range(&self, why: String) -> GenerateError {
        GenerateError::OutOfRange {
            why: format!(
                "{why} (the input spans x {} .. {}, y {} .. {}, z {} .. {})",
                number(self.lo[0]),
                number(self.hi[0]),
                number(self.lo[1]),
                number(self.hi[1]),
                number(self.lo[2]),
                number(self.hi[2])
            ),
        }
    }
}

/// `value` as a person reads it: exponent form for the very large and the very small (a
/// 1e30 coordinate is 31 digits otherwise).
pub(crate) fn number(value: f32) -> String {
    let size = value.abs();
    if size >= 1e7 || (size > 0.0 && size < 1e-4) {
        format!("{value:e}")
    } else {
        format!("{value}")
    }
}

/// The distance between `value` and the next larger 32-bit float.
fn float_step(value: f32) -> f32 {
    let value = value.abs();
    if !value.is_finite() {
        return f32::INFINITY;
    }
    f32::from_bits(value.to_bits() + 1) - value
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn claims_add_up_and_the_one_past_the_limit_is_refused_by_name() {
        let mut budget = Budget::new(2);
        budget.claim("voxelise", MIB).unwrap();
        budget.claim("voxelise", MIB).unwrap();
        assert_eq!(budget.used(), 2 * MIB);
        let error = budget.claim("walkable graph", 1).unwrap_err();
        let text = error.to_string();
        assert!(text.contains("walkable graph"), "{text}");
        assert!(text.contains("3 MiB"), "{text}");
        assert!(text.contains("limit of 2 MiB"), "{text}");
        assert!(text.contains("--max-memory MIB"), "{text}");
        // The refused claim is not counted.
        assert_eq!(budget.used(), 2 * MIB);
    }

    #[test]
    fn float_steps_are_those_of_f32() {
        assert_eq!(float_step(1.0), f32::EPSILON);
        assert_eq!(float_step(0.0), f32::from_bits(1));
        // 2^23 is where f32 stops holding halves.
        assert_eq!(float_step(8_388_608.0), 1.0);
        assert_eq!(float_step(1e30), 7.5557864e22);
    }

    #[test]
    fn a_stray_far_corner_is_refused_naming_it() {
        let corners = [[0.0, 0.0, 0.0], [10.0, 8.0, 0.0], [1e30, 0.0, 0.0]];
        let extent = Extent::of(corners.iter()).unwrap();
        assert_eq!(extent.farthest, [1e30, 0.0, 0.0]);
        let text = extent.check(0.1, 0.05).unwrap_err().to_string();
        assert!(text.contains("a corner lies at (1e30, 0, 0)"), "{text}");
        assert!(text.contains("x 0 .. 1e30"), "{text}");
        assert!(
            text.contains("coarser than a tenth of the 0.1 m cells"),
            "{text}"
        );
    }

    #[test]
    fn the_precision_bound_sits_where_floats_step_a_tenth_of_a_cell() {
        // At 0.1 m cells floats must step 0.01 m or less: up to 2^17 = 131,072 m they step
        // 0.0078 m, from there 0.0156 m.
        let at = |x: f32| Extent::of([[x, 0.0, 0.0]].iter()).unwrap().check(0.1, 0.05);
        assert!(at(131_071.0).is_ok());
        assert!(at(131_072.0).is_err());
        assert!(at(-131_072.0).is_err());
    }

    #[test]
    fn heights_are_held_to_a_tenth_of_the_cell_height() {
        // At 0.05 m steps floats must step 0.005 m or less: below 2^16 = 65,536 m.
        let at = |z: f32| Extent::of([[0.0, 0.0, z]].iter()).unwrap().check(0.1, 0.05);
        assert!(at(65_535.0).is_ok());
        let text = at(-65_536.0).unwrap_err().to_string();
        assert!(text.contains("height -65536 m"), "{text}");
        assert!(text.contains("0.05 m cell height"), "{text}");
    }
}
