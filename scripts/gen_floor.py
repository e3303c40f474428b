#!/usr/bin/env python3
"""Writes generated floors as OBJ, for PATH cook scaling runs (issues #24 and #33).

Two shapes, both square grids of cells split into two triangles each (diagonals alternate):

``jittered`` (the default; issue #24): a "gently uneven floor with holes". Unit cells, inner
corners jittered sideways by up to 0.2 and in height by up to 0.01 (well inside the cooker's
default 0.05 height tolerance), with a 4x4-cell square hole every 40 cells in both directions.

``stepped`` (issue #33, item 5): 0.5 m cells; the corner at column i, row j has the height
0.02 * ((7i + 3j) mod 5), so neighbouring faces differ by up to 0.08 and do not all merge
within the 0.05 tolerance. Within every block of 40 x 40 cells whose column and row block
numbers are both multiples of 3 ("every third block each way"), a 29 x 29-cell square hole
in the middle (cells 5..33 of the block). Deterministic: no random numbers.

    scripts/gen_floor.py TRIANGLES OUT.obj [--shape jittered|stepped] [--seed N] [--down]

--down writes every face with reversed winding (facing down), the wrong-winding case.
"""
import argparse
import math
import random

# jittered
HOLE_PERIOD = 40
HOLE_SIZE = 4
# stepped
BLOCK = 40
BLOCK_PERIOD = 3
STEP_HOLE = 29
STEP_HOLE_START = (BLOCK - STEP_HOLE) // 2
CELL = 0.5


def in_jittered_hole(i, j):
    return (i % HOLE_PERIOD) >= HOLE_PERIOD - HOLE_SIZE and (j % HOLE_PERIOD) >= HOLE_PERIOD - HOLE_SIZE


def in_stepped_hole(i, j):
    def inside(k):
        block, within = divmod(k, BLOCK)
        return block % BLOCK_PERIOD == 0 and STEP_HOLE_START <= within < STEP_HOLE_START + STEP_HOLE

    return inside(i) and inside(j)


def side_for(triangles, hole_fraction):
    kept = 1.0 - hole_fraction
    return max(1, round(math.sqrt(triangles / (2.0 * kept))))


def write(out, lines, force=False):
    if force or len(lines) > 10000:
        out.writelines(lines)
        lines.clear()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("triangles", type=int)
    parser.add_argument("out")
    parser.add_argument("--shape", choices=["jittered", "stepped"], default="jittered")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--down", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    stepped = args.shape == "stepped"
    if stepped:
        # About one block in nine (3 x 3) loses STEP_HOLE² of its BLOCK² cells.
        side = side_for(args.triangles, STEP_HOLE * STEP_HOLE / (BLOCK_PERIOD**2 * BLOCK * BLOCK))
        in_hole = in_stepped_hole
    else:
        side = side_for(args.triangles, HOLE_SIZE * HOLE_SIZE / (HOLE_PERIOD * HOLE_PERIOD))
        in_hole = in_jittered_hole
    with open(args.out, "w") as out:
        if stepped:
            out.write(f"# stepped floor, {side}x{side} cells of {CELL} m\n")
        else:
            out.write(f"# gently uneven floor, {side}x{side} cells, seed {args.seed}\n")
        lines = []
        for j in range(side + 1):
            for i in range(side + 1):
                if stepped:
                    z = 0.02 * ((7 * i + 3 * j) % 5)
                    lines.append(f"v {CELL * i:.5f} {z:.5f} {-CELL * j:.5f}\n")
                    continue
                edge = i in (0, side) or j in (0, side)
                dx = 0.0 if edge else rng.uniform(-0.2, 0.2)
                dy = 0.0 if edge else rng.uniform(-0.2, 0.2)
                z = rng.uniform(-0.01, 0.01)
                lines.append(f"v {i + dx:.5f} {z:.5f} {-(j + dy):.5f}\n")
            write(out, lines)
        write(out, lines, True)
        count = 0
        for j in range(side):
            for i in range(side):
                if in_hole(i, j):
                    continue
                a = j * (side + 1) + i + 1
                b, c, d = a + 1, a + side + 2, a + side + 1
                tris = [(a, b, c), (a, c, d)] if (i + j) % 2 == 0 else [(a, b, d), (b, c, d)]
                for t in tris:
                    if args.down:
                        t = (t[0], t[2], t[1])
                    lines.append(f"f {t[0]} {t[1]} {t[2]}\n")
                    count += 1
            write(out, lines)
        write(out, lines, True)
    print(f"{count} triangles, {side}x{side} cells")


if __name__ == "__main__":
    main()
