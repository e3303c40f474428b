"""Runs `walkmesh generate` and the C++ Recast (recast-reference) on each designed scene with
the same settings and compares the walkable footprints (`walkmesh diff --json`).

usage: recast_compare.py WALKMESH RECAST_REFERENCE SCENE_DIR
Exits non-zero when a scene's footprint IoU, precision or recall is under its bar, when
either generator fails, or when no scene was compared."""

import json
import subprocess
import sys
import time
from pathlib import Path

# One configuration for both: Recast's units (cells of 0.1 m, 0.05 m high), a 1.8 m agent of
# radius 0 (KotOR's walkmeshes reach the walls), a 0.3 m climb, a 40° slope limit.
SETTINGS = {
    "cell-size": "0.1",
    "cell-height": "0.05",
    "agent-height": "1.8",
    "agent-radius": "0",
    "max-climb": "0.3",
    "max-slope": "40",
    "min-region-area": "0.5",
}
# Recast's polygons follow its voxel contours simplified by 1.3 cells, ours the render
# geometry's outline: the two differ by a band about a cell wide along every boundary.
BARS = {"iou": 0.90, "precision": 0.93, "recall": 0.93}


def run(command):
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"recast peer: {' '.join(map(str, command))} failed ({done.returncode}):\n"
                 f"{done.stdout}{done.stderr}")
    return done.stdout, seconds


def options():
    return [word for key, value in SETTINGS.items() for word in (f"--{key}", value)]


def generate_both(walkmesh, reference, scene):
    ours = scene.with_suffix(".ours.obj")
    theirs = scene.with_suffix(".recast.obj")
    _, our_seconds = run([walkmesh, "generate", scene, "-o", ours, "--engine", "generic",
                          "--keep-unreachable", "--quiet", *options()])
    printed, _ = run([reference, scene, theirs, *options()])
    return ours, theirs, our_seconds, json.loads(printed)


def footprint(walkmesh, ours, theirs):
    done = subprocess.run([walkmesh, "diff", ours, theirs, "--json"], capture_output=True,
                          text=True)
    if done.returncode not in (0, 1):
        sys.exit(f"recast peer: diff failed ({done.returncode}): {done.stderr}")
    fp = json.loads(done.stdout)["footprint"]
    both = fp["area_a"] - fp["only_a_area"]
    union = fp["area_a"] + fp["only_b_area"]
    return {
        "ours_m2": fp["area_a"],
        "recast_m2": fp["area_b"],
        "iou": both / union if union else 1.0,
        "precision": both / fp["area_a"] if fp["area_a"] else 0.0,
        "recall": both / fp["area_b"] if fp["area_b"] else 0.0,
    }


def main():
    walkmesh, reference, folder = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    scenes = sorted(p for p in folder.glob("*.obj") if p.stem.count(".") == 0)
    failures, compared = [], 0
    for scene in scenes:
        ours, theirs, our_seconds, ref = generate_both(walkmesh, reference, scene)
        if scene.stem == "big":
            print(f"recast: big scene ({ref['input_triangles']} triangles): walkmesh generate "
                  f"{our_seconds:.2f} s (whole process) against C++ Recast {ref['seconds']:.2f} s "
                  f"(pipeline alone): ratio {our_seconds / max(ref['seconds'], 1e-9):.2f}")
        figures = footprint(walkmesh, ours, theirs)
        compared += 1
        print(f"recast: {scene.stem}: ours {figures['ours_m2']:.2f} m², Recast "
              f"{figures['recast_m2']:.2f} m², IoU {figures['iou']:.3f}, precision "
              f"{figures['precision']:.3f}, recall {figures['recall']:.3f}")
        for key, bar in BARS.items():
            if figures[key] < bar:
                failures.append(f"{scene.stem}: {key} {figures[key]:.3f} < {bar}")
    if not compared:
        sys.exit("recast peer: no scene compared")
    if failures:
        sys.exit("recast peer: footprints differ from the C++ Recast:\n  " + "\n  ".join(failures))
    print(f"recast: {compared} scenes compared with the C++ Recast")


if __name__ == "__main__":
    main()
