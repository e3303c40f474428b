"""Designed scenes for the C++ Recast comparison (.ci/peers/recast.sh), written as Y-up OBJ
files as a modelling tool exports them: `python3 recast_scenes.py OUTDIR [--big N]`.

Every solid is a closed box with outward-facing triangles, so both generators see the same
walls, tops and undersides. `--big N` adds `big.obj`: an N×N grid of boxes on a terrain of
2·N² triangles, the speed scene (about 2·N² + 12·N² triangles)."""

import math
import sys
from pathlib import Path


class Scene:
    def __init__(self):
        self.verts = []
        self.faces = []

    def quad(self, a, b, c, d):
        base = len(self.verts)
        self.verts += [a, b, c, d]
        self.faces += [(base, base + 1, base + 2), (base, base + 2, base + 3)]

    def box(self, x0, y0, z0, x1, y1, z1):
        """An axis-aligned box (Y up): x0<x1, y0<y1 (height), z0<z1."""
        p = lambda x, y, z: (x, y, z)
        # top (+Y), bottom (-Y), then the four sides, each counter-clockwise from outside
        self.quad(p(x0, y1, z1), p(x1, y1, z1), p(x1, y1, z0), p(x0, y1, z0))
        self.quad(p(x0, y0, z0), p(x1, y0, z0), p(x1, y0, z1), p(x0, y0, z1))
        self.quad(p(x0, y0, z1), p(x1, y0, z1), p(x1, y1, z1), p(x0, y1, z1))
        self.quad(p(x1, y0, z0), p(x0, y0, z0), p(x0, y1, z0), p(x1, y1, z0))
        self.quad(p(x1, y0, z1), p(x1, y0, z0), p(x1, y1, z0), p(x1, y1, z1))
        self.quad(p(x0, y0, z0), p(x0, y0, z1), p(x0, y1, z1), p(x0, y1, z0))

    def ramp(self, x0, x1, z0, z1, rise):
        """A slab rising along +X from height 0 at x0 to `rise` at x1 (top face only)."""
        self.quad((x0, 0.0, z1), (x1, rise, z1), (x1, rise, z0), (x0, 0.0, z0))

    def write(self, path):
        lines = [f"v {x:.6f} {y:.6f} {z:.6f}" for x, y, z in self.verts]
        lines += [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in self.faces]
        Path(path).write_text("\n".join(lines) + "\n")


def floor_with_boxes():
    s = Scene()
    s.box(0, -0.2, 0, 20, 0, 20)
    s.box(3, 0, 3, 6, 1.0, 6)       # a table: walkable top, too high to climb
    s.box(10, 0, 4, 12, 3.0, 14)    # a pillar wall
    s.box(14, 0, 14, 17, 0.25, 17)  # a low step, within the climb
    return s


def stairs_and_ramps():
    s = Scene()
    s.box(0, -0.2, 0, 30, 0, 10)
    for step in range(6):            # 0.2 m steps up to 1.2 m, then a landing
        s.box(2 + step * 0.4, 0, 1, 2.4 + step * 0.4, 0.2 * (step + 1), 4)
    s.box(4.4, 0, 1, 7, 1.2, 4)
    s.ramp(10, 16, 1, 4, 6 * math.tan(math.radians(25)))   # under the slope limit
    s.ramp(18, 21, 1, 4, 3 * math.tan(math.radians(55)))   # over it
    return s


def stacked_and_low():
    s = Scene()
    s.box(0, -0.2, 0, 20, 0, 20)
    s.box(2, 3.0, 2, 10, 3.2, 10)     # an upper floor over the lower one
    s.box(12, 1.0, 2, 18, 1.2, 18)    # a ceiling 1.0 m up: lower than the agent
    return s


def big(n):
    s = Scene()
    size = 2.0
    for i in range(n):
        for j in range(n):
            x0, z0 = i * size, j * size
            h = lambda a, b: 0.05 * math.sin(a * 0.3) * math.cos(b * 0.2)
            s.quad((x0, h(i, j + 1), z0 + size), (x0 + size, h(i + 1, j + 1), z0 + size),
                   (x0 + size, h(i + 1, j), z0), (x0, h(i, j), z0))
            if (i * 7 + j * 3) % 5 == 0:
                s.box(x0 + 0.5, 0, z0 + 0.5, x0 + 1.3, 0.5 + (i + j) % 3, z0 + 1.3)
    return s


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    floor_with_boxes().write(out / "floor_with_boxes.obj")
    stairs_and_ramps().write(out / "stairs_and_ramps.obj")
    stacked_and_low().write(out / "stacked_and_low.obj")
    if "--big" in sys.argv:
        big(int(sys.argv[sys.argv.index("--big") + 1])).write(out / "big.obj")


if __name__ == "__main__":
    main()
