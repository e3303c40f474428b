//! `recast-reference IN.obj OUT.obj [--cell-size S] [--cell-height S] [--agent-height H]
//! [--agent-radius R] [--max-climb H] [--max-slope DEG] [--min-region-area M2]`
//!
//! Runs the C++ recastnavigation (through `recastnavigation-sys`) on the triangles of an
//! OBJ with the solo-mesh pipeline of its RecastDemo (voxelise, filters, compact heightfield,
//! erosion, distance field, watershed regions, contours, polygons, detail mesh) and writes
//! the detail triangles as an OBJ. It is the reference `walkmesh generate` is compared
//! with by `.ci/peers/recast.sh`; it prints one JSON line with the counts and the seconds
//! the pipeline took (reading and writing the OBJ excluded).
//!
//! Recast is Y-up, as OBJ files from modelling tools are (and as `walkmesh` reads an OBJ by
//! default): coordinates pass through unchanged both ways.

use std::fmt::Write as _;
use std::os::raw::c_int;
use std::time::Instant;

use recastnavigation_sys as rc;

#[derive(Debug, Clone, Copy)]
struct Settings {
    cell_size: f32,
    cell_height: f32,
    agent_height: f32,
    agent_radius: f32,
    max_climb: f32,
    max_slope: f32,
    min_region_area: f32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            cell_size: 0.1,
            cell_height: 0.05,
            agent_height: 1.8,
            agent_radius: 0.0,
            max_climb: 0.3,
            max_slope: 40.0,
            min_region_area: 0.5,
        }
    }
}

fn parse_args() -> Result<(String, String, Settings), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut settings = Settings::default();
    let mut files = Vec::new();
    let mut at = 0;
    while at < args.len() {
        let arg = &args[at];
        if let Some(name) = arg.strip_prefix("--") {
            let value: f32 = args
                .get(at + 1)
                .ok_or(format!("{arg} needs a value"))?
                .parse()
                .map_err(|e| format!("{arg}: {e}"))?;
            let slot = match name {
                "cell-size" => &mut settings.cell_size,
                "cell-height" => &mut settings.cell_height,
                "agent-height" => &mut settings.agent_height,
                "agent-radius" => &mut settings.agent_radius,
                "max-climb" => &mut settings.max_climb,
                "max-slope" => &mut settings.max_slope,
                "min-region-area" => &mut settings.min_region_area,
                _ => return Err(format!("unknown option {arg}")),
            };
            *slot = value;
            at += 2;
        } else {
            files.push(arg.clone());
            at += 1;
        }
    }
    match <[String; 2]>::try_from(files) {
        Ok([input, output]) => Ok((input, output, settings)),
        Err(_) => Err("usage: recast-reference IN.obj OUT.obj [options]".into()),
    }
}

/// Vertices and triangles of an OBJ's `v` and `f` lines (polygons fanned).
fn read_obj(text: &str) -> Result<(Vec<f32>, Vec<c_int>), String> {
    let mut verts = Vec::new();
    let mut tris = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("v") => {
                let p: Vec<f32> = words.take(3).filter_map(|w| w.parse().ok()).collect();
                let [x, y, z] = <[f32; 3]>::try_from(p)
                    .map_err(|_| format!("line {}: bad vertex", number + 1))?;
                verts.extend([x, y, z]);
            }
            Some("f") => {
                let count = (verts.len() / 3) as c_int;
                let mut corners = Vec::new();
                for word in words {
                    let index: c_int = word
                        .split('/')
                        .next()
                        .and_then(|i| i.parse().ok())
                        .ok_or(format!("line {}: bad face", number + 1))?;
                    let index = if index < 0 { count + index } else { index - 1 };
                    if !(0..count).contains(&index) {
                        return Err(format!("line {}: index out of range", number + 1));
                    }
                    corners.push(index);
                }
                for k in 1..corners.len().saturating_sub(1) {
                    tris.extend([corners[0], corners[k], corners[k + 1]]);
                }
            }
            _ => {}
        }
    }
    Ok((verts, tris))
}

/// The detail mesh as an OBJ, and its triangle count.
fn detail_obj(dmesh: &rc::rcPolyMeshDetail) -> (String, usize) {
    let mut out = String::from("# C++ recastnavigation detail mesh (recast-reference)\n");
    let mut triangles = 0;
    let mut base = 1usize;
    // SAFETY of the slices: Recast sized `meshes` to 4·nmeshes, `verts` to 3·nverts and
    // `tris` to 4·ntris; each sub-mesh's ranges lie inside those.
    let meshes = unsafe { std::slice::from_raw_parts(dmesh.meshes, 4 * dmesh.nmeshes as usize) };
    let verts = unsafe { std::slice::from_raw_parts(dmesh.verts, 3 * dmesh.nverts as usize) };
    let tris = unsafe { std::slice::from_raw_parts(dmesh.tris, 4 * dmesh.ntris as usize) };
    for sub in meshes.chunks_exact(4) {
        let (vbase, vcount, tbase, tcount) = (
            sub[0] as usize,
            sub[1] as usize,
            sub[2] as usize,
            sub[3] as usize,
        );
        for v in verts[3 * vbase..3 * (vbase + vcount)].chunks_exact(3) {
            let _ = writeln!(out, "v {} {} {}", v[0], v[1], v[2]);
        }
        for t in tris[4 * tbase..4 * (tbase + tcount)].chunks_exact(4) {
            let _ = writeln!(
                out,
                "f {} {} {}",
                base + t[0] as usize,
                base + t[1] as usize,
                base + t[2] as usize
            );
            triangles += 1;
        }
        base += vcount;
    }
    (out, triangles)
}

fn check(ok: bool, stage: &str) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(format!("Recast failed at {stage}"))
    }
}

/// The solo-mesh pipeline of RecastDemo's Sample_SoloMesh::handleBuild.
fn build(verts: &[f32], tris: &[c_int], s: Settings) -> Result<(String, usize, usize), String> {
    let nverts = (verts.len() / 3) as c_int;
    let ntris = (tris.len() / 3) as c_int;
    let walkable_height = (s.agent_height / s.cell_height).ceil() as c_int;
    let walkable_climb = (s.max_climb / s.cell_height).floor() as c_int;
    let walkable_radius = (s.agent_radius / s.cell_size).ceil() as c_int;
    let min_region = (s.min_region_area / (s.cell_size * s.cell_size)).round() as c_int;
    unsafe {
        let ctx = rc::CreateContext(false);
        let mut bmin = [0f32; 3];
        let mut bmax = [0f32; 3];
        rc::rcCalcBounds(verts.as_ptr(), nverts, bmin.as_mut_ptr(), bmax.as_mut_ptr());
        let (mut width, mut height) = (0, 0);
        rc::rcCalcGridSize(
            bmin.as_ptr(),
            bmax.as_ptr(),
            s.cell_size,
            &mut width,
            &mut height,
        );
        let solid = rc::rcAllocHeightfield();
        check(
            rc::rcCreateHeightfield(
                ctx,
                solid,
                width,
                height,
                bmin.as_ptr(),
                bmax.as_ptr(),
                s.cell_size,
                s.cell_height,
            ),
            "heightfield",
        )?;
        let mut areas = vec![0u8; ntris as usize];
        rc::rcMarkWalkableTriangles(
            ctx,
            s.max_slope,
            verts.as_ptr(),
            nverts,
            tris.as_ptr(),
            ntris,
            areas.as_mut_ptr(),
        );
        check(
            rc::rcRasterizeTriangles(
                ctx,
                verts.as_ptr(),
                nverts,
                tris.as_ptr(),
                areas.as_ptr(),
                ntris,
                solid,
                walkable_climb,
            ),
            "rasterise",
        )?;
        rc::rcFilterLowHangingWalkableObstacles(ctx, walkable_climb, solid);
        rc::rcFilterLedgeSpans(ctx, walkable_height, walkable_climb, solid);
        rc::rcFilterWalkableLowHeightSpans(ctx, walkable_height, solid);
        let chf = rc::rcAllocCompactHeightfield();
        check(
            rc::rcBuildCompactHeightfield(ctx, walkable_height, walkable_climb, solid, chf),
            "compact heightfield",
        )?;
        rc::rcFreeHeightField(solid);
        check(rc::rcErodeWalkableArea(ctx, walkable_radius, chf), "erode")?;
        check(rc::rcBuildDistanceField(ctx, chf), "distance field")?;
        check(
            rc::rcBuildRegions(ctx, chf, 0, min_region, 20 * 20),
            "regions",
        )?;
        let cset = rc::rcAllocContourSet();
        // RC_CONTOUR_TESS_WALL_EDGES; simplification error 1.3 cells, edges ≤ 12 m.
        let max_edge = (12.0 / s.cell_size) as c_int;
        check(
            rc::rcBuildContours(ctx, chf, 1.3, max_edge, cset, 1),
            "contours",
        )?;
        let pmesh = rc::rcAllocPolyMesh();
        check(rc::rcBuildPolyMesh(ctx, cset, 6, pmesh), "polygons")?;
        let dmesh = rc::rcAllocPolyMeshDetail();
        check(
            rc::rcBuildPolyMeshDetail(ctx, pmesh, chf, s.cell_size * 6.0, s.cell_height, dmesh),
            "detail mesh",
        )?;
        let polygons = (*pmesh).npolys as usize;
        let (obj, triangles) = detail_obj(&*dmesh);
        rc::rcFreePolyMeshDetail(dmesh);
        rc::rcFreePolyMesh(pmesh);
        rc::rcFreeContourSet(cset);
        rc::rcFreeCompactHeightfield(chf);
        rc::DeleteContext(ctx);
        Ok((obj, polygons, triangles))
    }
}

fn run() -> Result<(), String> {
    let (input, output, settings) = parse_args()?;
    let text = std::fs::read_to_string(&input).map_err(|e| format!("{input}: {e}"))?;
    let (verts, tris) = read_obj(&text).map_err(|e| format!("{input}: {e}"))?;
    let start = Instant::now();
    let (obj, polygons, triangles) = build(&verts, &tris, settings)?;
    let seconds = start.elapsed().as_secs_f64();
    std::fs::write(&output, obj).map_err(|e| format!("{output}: {e}"))?;
    println!(
        "{{\"input_triangles\": {}, \"polygons\": {polygons}, \"triangles\": {triangles}, \"seconds\": {seconds:.6}}}",
        tris.len() / 3
    );
    Ok(())
}

fn main() {
    if let Err(message) = run() {
        eprintln!("recast-reference: {message}");
        std::process::exit(2);
    }
}
