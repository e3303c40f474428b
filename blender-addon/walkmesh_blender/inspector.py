"""Open Inspector: the active mesh in `walkmesh view`'s 3-D inspector (one HTML file, opened in
the web browser). The page is written from the mesh as the exporter would see it (modifiers
applied, transitions and hooks included), so it shows the neutral mesh's fields of a clicked
face; the stored fields and offsets of a game file need `walkmesh view FILE` on the file."""

import os
import tempfile
import webbrowser
from pathlib import Path

import bpy
from bpy.props import BoolProperty, StringProperty

from . import bridge, vendor


def default_path(obj):
    """A file in the temporary folder named after the object (the same one each time)."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in obj.name) or "mesh"
    return os.path.join(tempfile.gettempdir(), f"walkmesh-view-{safe}.html")


def write_inspector(context, obj, path):
    """Writes the inspector page of `obj` to `path`; returns the notes of the conversion."""
    walkmesh = vendor.load()
    depsgraph = context.evaluated_depsgraph_get()
    mesh, notes = bridge.object_to_walkmesh(obj, walkmesh, depsgraph)
    mesh.view(path)
    return notes


class WALKMESH_OT_open_inspector(bpy.types.Operator):
    bl_idname = "walkmesh.open_inspector"
    bl_label = "Open Inspector"
    bl_description = (
        "Write the active mesh as a walkmesh inspector page (3-D, layers, click a face for "
        "its fields) and open it in the web browser"
    )

    filepath: StringProperty(
        name="File",
        description="Where to write the page (empty: the temporary folder)",
        subtype="FILE_PATH",
        default="",
    )
    open_browser: BoolProperty(
        name="Open in Browser",
        description="Open the page in the web browser once written",
        default=True,
    )

    @classmethod
    def poll(cls, context):
        obj = context.active_object
        return obj is not None and obj.type == "MESH"

    def execute(self, context):
        obj = context.active_object
        if obj.mode == "EDIT":
            # Edit Mode keeps its changes in the BMesh until the mode is left.
            obj.update_from_editmode()
        path = self.filepath or default_path(obj)
        try:
            notes = write_inspector(context, obj, path)
        except (ImportError, ValueError, OSError) as error:
            self.report({"ERROR"}, f"inspector: {error}")
            return {"CANCELLED"}
        for note in notes:
            self.report({"INFO"}, note)
        if self.open_browser:
            webbrowser.open(Path(path).resolve().as_uri())
        self.report({"INFO"}, f"inspector written to {path}")
        return {"FINISHED"}


def register():
    bpy.utils.register_class(WALKMESH_OT_open_inspector)


def unregister():
    bpy.utils.unregister_class(WALKMESH_OT_open_inspector)
