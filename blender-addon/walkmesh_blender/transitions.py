"""Painting transitions on edges in Edit Mode: Apply (the panel's room index), Clear, Select."""

import bmesh
import bpy

from . import bridge


def _edge_layer(bm):
    layer = bm.edges.layers.int.get(bridge.TRANSITION_ATTR)
    if layer is None:
        layer = bm.edges.layers.int.new(bridge.TRANSITION_ATTR)
        # Blender fills a new integer layer with 0, a valid room index: start from "none".
        for edge in bm.edges:
            edge[layer] = -1
    return layer


def set_selected_transition(bm, value):
    """Sets `value` (-1 clears) on the selected edges of a BMesh: the attribute and the seam
    mark together; returns how many edges. The layer is made before the edges are collected:
    adding a layer to a BMesh rebuilds its edge storage, so BMEdge objects taken earlier are
    dead (`ReferenceError: BMesh data of type BMEdge has been removed`)."""
    layer = _edge_layer(bm)
    edges = [edge for edge in bm.edges if edge.select]
    for edge in edges:
        edge[layer] = value
        edge.seam = value >= 0
    return len(edges)


class _EditModeOperator:
    bl_options = {"REGISTER", "UNDO"}

    @classmethod
    def poll(cls, context):
        obj = context.active_object
        return obj is not None and obj.type == "MESH" and obj.mode == "EDIT"


class WALKMESH_OT_transition_apply(_EditModeOperator, bpy.types.Operator):
    bl_idname = "walkmesh.transition_apply"
    bl_label = "Apply Transition"
    bl_description = "Make the selected edges transitions to the panel's room (and seams)"

    def execute(self, context):
        obj = context.active_object
        bm = bmesh.from_edit_mesh(obj.data)
        room = context.scene.walkmesh.room
        count = set_selected_transition(bm, room)
        bmesh.update_edit_mesh(obj.data)
        self.report({"INFO"}, f"{count} edge(s) lead to room {room}")
        return {"FINISHED"}


class WALKMESH_OT_transition_clear(_EditModeOperator, bpy.types.Operator):
    bl_idname = "walkmesh.transition_clear"
    bl_label = "Clear Transition"
    bl_description = "Remove the transition (and the seam) of the selected edges"

    def execute(self, context):
        obj = context.active_object
        bm = bmesh.from_edit_mesh(obj.data)
        count = set_selected_transition(bm, -1)
        bmesh.update_edit_mesh(obj.data)
        self.report({"INFO"}, f"{count} edge(s) cleared")
        return {"FINISHED"}


class WALKMESH_OT_transition_select(_EditModeOperator, bpy.types.Operator):
    bl_idname = "walkmesh.transition_select"
    bl_label = "Select Transition Edges"
    bl_description = "Select the edges that lead to the panel's room"

    def execute(self, context):
        obj = context.active_object
        bm = bmesh.from_edit_mesh(obj.data)
        layer = bm.edges.layers.int.get(bridge.TRANSITION_ATTR)
        room = context.scene.walkmesh.room
        count = 0
        for edge in bm.edges:
            hit = layer is not None and edge.seam and edge[layer] == room
            edge.select_set(hit)
            count += hit
        bm.select_flush_mode()
        bmesh.update_edit_mesh(obj.data)
        self.report({"INFO"}, f"{count} edge(s) lead to room {room}")
        return {"FINISHED"}


CLASSES = (WALKMESH_OT_transition_apply, WALKMESH_OT_transition_clear,
           WALKMESH_OT_transition_select)


def register():
    for cls in CLASSES:
        bpy.utils.register_class(cls)


def unregister():
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
