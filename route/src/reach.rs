//! Reachability over the walkable surface: the connected walkable components (faces joined
//! through shared edges, the links of [`crate::surface`]) with their area and a point on each,
//! and, from a start point, the walkable area that cannot be reached.

use serde::Serialize;
use walkmesh_core::passes::{connected_components, polygon_area};

use crate::surface::{LocateError, Point, SurfaceRouter, height_at};

/// One connected walkable component.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Component {
    /// Numbered in order of each component's lowest face index, from 0.
    pub id: usize,
    pub faces: usize,
    /// Sum of the faces' 3-D areas.
    pub area: f64,
    /// A point on the component: the plan centroid of its largest face (lowest index on
    /// ties) at that face's height there.
    pub position: Point,
    /// Bounding box of the component's corners.
    pub min: Point,
    pub max: Point,
}

/// What a start point reaches.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FromStart {
    /// The located start (on the ground).
    pub from: Point,
    pub face: u32,
    pub component: usize,
    pub reachable_area: f64,
    pub unreachable_area: f64,
    /// Ids of the components that cannot be reached, in id order.
    pub unreachable: Vec<usize>,
}

/// `walkmesh reach` in one value (its `--json` form).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Reach {
    pub walkable_area: f64,
    pub components: Vec<Component>,
    pub start: Option<FromStart>,
}

impl Reach {
    /// True when some walkable area cannot be reached: from the start when there is one,
    /// else when the walkable surface is in more than one piece.
    pub fn anything_unreachable(&self) -> bool {
        match &self.start {
            Some(start) => !start.unreachable.is_empty(),
            None => self.components.len() > 1,
        }
    }
}

/// Components of the router's mesh, and what `start` reaches when given.
pub fn reach(router: &SurfaceRouter<'_>, start: Option<Point>) -> Result<Reach, LocateError> {
    let mesh = router.mesh();
    let labels = connected_components(mesh, router.adjacency(), |p| mesh.is_walkable(p));
    let mut components: Vec<Component> = Vec::with_capacity(labels.count);
    let mut largest: Vec<(f64, u32)> = Vec::with_capacity(labels.count);
    for (face, &label) in labels.label.iter().enumerate() {
        let Some(id) = usize::try_from(label).ok().filter(|&l| l < labels.count) else {
            continue;
        };
        let area = polygon_area(mesh, face);
        let corners = router.face_corners(face as u32);
        if id == components.len() {
            components.push(Component {
                id,
                faces: 0,
                area: 0.0,
                position: [0.0; 3],
                min: [f64::INFINITY; 3],
                max: [f64::NEG_INFINITY; 3],
            });
            largest.push((f64::NEG_INFINITY, face as u32));
        }
        let (Some(component), Some(biggest)) = (components.get_mut(id), largest.get_mut(id)) else {
            continue;
        };
        component.faces += 1;
        component.area += area;
        for c in &corners {
            for ((low, high), &value) in component.min.iter_mut().zip(&mut component.max).zip(c) {
                *low = low.min(value);
                *high = high.max(value);
            }
        }
        if area > biggest.0 {
            *biggest = (area, face as u32);
        }
    }
    for (component, &(_, face)) in components.iter_mut().zip(&largest) {
        component.position = centre_on_face(&router.face_corners(face));
    }
    let walkable_area = components.iter().map(|c| c.area).sum();
    let start = match start {
        None => None,
        Some(point) => {
            let located = router.locate(point)?;
            let component = labels
                .label
                .get(located.face as usize)
                .map_or(0, |&l| l as usize);
            let reachable_area = components.get(component).map_or(0.0, |c| c.area);
            Some(FromStart {
                from: located.point,
                face: located.face,
                component,
                reachable_area,
                unreachable_area: walkable_area - reachable_area,
                unreachable: components
                    .iter()
                    .map(|c| c.id)
                    .filter(|&id| id != component)
                    .collect(),
            })
        }
    };
    Ok(Reach {
        walkable_area,
        components,
        start,
    })
}

/// The plan centroid of a face's corners at the face's height there.
fn centre_on_face(corners: &[Point]) -> Point {
    let n = corners.len().max(1) as f64;
    let x = corners.iter().map(|c| c[0]).sum::<f64>() / n;
    let y = corners.iter().map(|c| c[1]).sum::<f64>() / n;
    [x, y, height_at(corners, x, y)]
}
