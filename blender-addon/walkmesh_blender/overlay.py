"""A viewport overlay: the room number of every transition edge of the selected walkmesh
objects, drawn at the edge's midpoint (Object and Edit Mode; toggle in the Walkmesh panel).
Seams show which edges are transitions in Edit Mode; this shows where they lead."""

import blf
import bpy
import numpy as np
from mathutils import Vector
from bpy_extras.view3d_utils import location_3d_to_region_2d

from . import bridge

_HANDLE = None
_MAX_LABELS = 2000  # beyond that the labels are unreadable anyway


def _labels(obj):
    mesh = obj.data
    attribute = mesh.attributes.get(bridge.TRANSITION_ATTR)
    if attribute is None or attribute.domain != "EDGE" or obj.mode == "EDIT":
        # In Edit Mode the mesh data is stale until it is written back; seams show there.
        return []
    count = len(mesh.edges)
    values = np.empty(count, dtype=np.int32)
    attribute.data.foreach_get("value", values)
    seams = np.zeros(count, dtype=bool)
    mesh.edges.foreach_get("use_seam", seams)
    tagged = np.nonzero((values >= 0) & seams)[0][:_MAX_LABELS]
    if not len(tagged):
        return []
    ends = np.empty(count * 2, dtype=np.int32)
    mesh.edges.foreach_get("vertices", ends)
    coords = np.empty(len(mesh.vertices) * 3, dtype=np.float32)
    mesh.vertices.foreach_get("co", coords)
    coords = coords.reshape(-1, 3)
    ends = ends.reshape(-1, 2)[tagged]
    middles = (coords[ends[:, 0]] + coords[ends[:, 1]]) / 2
    matrix = obj.matrix_world
    return [(matrix @ Vector(m), int(v))
            for m, v in zip(middles, values[tagged])]


def set_font(font=0):
    """The labels' font size and colour. blf.size takes no DPI argument from Blender 4.0 on
    (a third argument raises TypeError); without one Blender 3.x uses 72 DPI, as before."""
    blf.size(font, 14)
    blf.color(font, 1.0, 0.35, 0.2, 1.0)


def screen_labels(context, region, view):
    """(x, y, text) in region pixels of every transition label of the selected mesh objects
    (labels behind the view are left out)."""
    placed = []
    for obj in context.selected_objects:
        if obj.type != "MESH":
            continue
        for point, room in _labels(obj):
            at = location_3d_to_region_2d(region, view, point)
            if at is not None:
                placed.append((at.x, at.y, str(room)))
    return placed


def _draw():
    context = bpy.context
    settings = getattr(context.scene, "walkmesh", None)
    if settings is None or not settings.show_rooms:
        return
    font = 0
    set_font(font)
    for x, y, text in screen_labels(context, context.region, context.region_data):
        blf.position(font, x, y, 0)
        blf.draw(font, text)


def register():
    global _HANDLE
    _HANDLE = bpy.types.SpaceView3D.draw_handler_add(_draw, (), "WINDOW", "POST_PIXEL")


def unregister():
    global _HANDLE
    if _HANDLE is not None:
        bpy.types.SpaceView3D.draw_handler_remove(_HANDLE, "WINDOW")
        _HANDLE = None
