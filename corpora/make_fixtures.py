#!/usr/bin/env python3
"""Writes the hand-designed OBJ fixtures in corpora/obj/ (Y-up, as Blender exports).

Coordinates are given Z-up (x, y, z) and written as OBJ (x, z, -y). Polygons are
counter-clockwise seen from above. The facts each fixture must show are in manifest.ron,
computed by hand (see the comments there), not by walkmesh.
"""
import os

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "obj")


class Obj:
    def __init__(self, title):
        self.lines = [f"# walkmesh fixture: {title}"]
        self.vertices = {}
        self.order = []
        self.faces = []  # (material, [indices])

    def v(self, x, y, z=0.0):
        key = (float(x), float(y), float(z))
        if key not in self.vertices:
            self.vertices[key] = len(self.order) + 1
            self.order.append(key)
        return self.vertices[key]

    def face(self, material, points):
        self.faces.append((material, [self.v(*p) for p in points]))

    def quad(self, material, x, y, size=1.0, z=0.0):
        self.face(material, [(x, y, z), (x + size, y, z), (x + size, y + size, z), (x, y + size, z)])

    def write(self, name):
        out = list(self.lines)
        for (x, y, z) in self.order:
            out.append(f"v {fmt(x)} {fmt(z)} {fmt(-y)}")
        current = None
        for material, indices in self.faces:
            if material != current:
                out.append(f"usemtl {material}")
                current = material
            out.append("f " + " ".join(str(i) for i in indices))
        with open(os.path.join(HERE, name), "w", newline="\n") as f:
            f.write("\n".join(out) + "\n")


def fmt(value):
    value = 0.0 if value == 0 else value
    return f"{value:g}"


def main():
    os.makedirs(HERE, exist_ok=True)

    floor = Obj("flat 4 x 3 floor of unit quads")
    for y in range(3):
        for x in range(4):
            floor.quad("Stone", x, y)
    floor.write("flat_floor.obj")

    room = Obj("4 x 4 room with a 2 x 2 hole in the middle")
    for y in range(4):
        for x in range(4):
            if not (1 <= x <= 2 and 1 <= y <= 2):
                room.quad("Stone" if (x + y) % 2 else "Wood", x, y)
    room.write("room_with_hole.obj")

    rooms = Obj("two 2 x 2 rooms with a gap between them")
    for y in range(2):
        for x in range(2):
            rooms.quad("Grass", x, y)
            rooms.quad("Dirt", x + 5, y)
    rooms.write("two_rooms.obj")

    ngons = Obj("concave n-gons: an L hexagon (area 3) and a U octagon (area 5)")
    ngons.face("Grass", [(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)])
    ngons.face("Wood", [(4, 0), (7, 0), (7, 2), (6, 2), (6, 1), (5, 1), (5, 2), (4, 2)])
    ngons.write("concave_ngons.obj")

    strip = Obj("5 x 1 walkable strip cut by a NonWalk column on its middle cell")
    for x in range(5):
        strip.quad("NonWalk" if x == 2 else "Stone", x, 0)
    # The column: four walls and a lid on the middle cell, 2 units high.
    c = [(2, 0), (3, 0), (3, 1), (2, 1)]
    for i in range(4):
        (ax, ay), (bx, by) = c[i], c[(i + 1) % 4]
        strip.face("NonWalk", [(ax, ay, 0), (bx, by, 0), (bx, by, 2), (ax, ay, 2)])
    strip.face("NonWalk", [(x, y, 2) for (x, y) in c])
    strip.write("strip_with_column.obj")

    fin = Obj("non-manifold: a square of two triangles plus a walkable fin on the diagonal")
    fin.face("Stone", [(0, 0), (1, 0), (1, 1)])
    fin.face("Stone", [(0, 0), (1, 1), (0, 1)])
    fin.face("Stone", [(0, 0), (1, 1), (0.5, 0.5, 1)])
    fin.write("non_manifold.obj")


if __name__ == "__main__":
    main()
