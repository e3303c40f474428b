"""KotOR layouts: import a LYT with its rooms' walkmeshes, and solve room-to-room transitions
with the package's solver (the one `walkmesh area solve` runs)."""

import json
import os

import bpy
from bpy.props import StringProperty
from bpy_extras.io_utils import ImportHelper

from . import bridge, vendor

PROP_LYT = "walkmesh_lyt"
PROP_ROOMS = "walkmesh_lyt_rooms"


def read_lyt_rooms(path):
    """Room names of a LYT in order (their index is what transitions name), read by the
    package's LYT reader (`walkmesh.read_lyt`, the one `walkmesh area check` runs)."""
    walkmesh = vendor.load()
    reader = getattr(walkmesh, "read_lyt", None)
    if reader is None:
        raise ImportError(
            "the walkmesh package found has no read_lyt (it is older than this add-on): "
            "install the add-on zip built by blender-addon/build_zip.py"
        )
    return [room["name"] for room in reader(path)["rooms"]]


def find_room_file(folder, room):
    wanted = f"{room}.wok".lower()
    for name in os.listdir(folder):
        if name.lower() == wanted:
            return os.path.join(folder, name)
    return None


def import_lyt(context, path):
    """A collection named after the layout holding one object per room that has a WOK beside
    the LYT; returns (collection, objects, missing room names)."""
    rooms = read_lyt_rooms(path)
    name = os.path.splitext(os.path.basename(path))[0]
    collection = bpy.data.collections.new(name)
    context.scene.collection.children.link(collection)
    collection[PROP_LYT] = path
    collection[PROP_ROOMS] = json.dumps(rooms)  # ID properties hold no string lists
    folder = os.path.dirname(os.path.abspath(path))
    objects, missing = [], []
    walkmesh = vendor.load()
    for index, room in enumerate(rooms):
        file = find_room_file(folder, room)
        if file is None:
            missing.append(room)
            continue
        mesh = walkmesh.read(file)
        obj, _ = bridge.mesh_to_object(mesh, room, collection, source_format=mesh.source_format)
        obj[bridge.PROP_LYT_INDEX] = index
        objects.append(obj)
    return collection, objects, missing


def layout_collection(context):
    """The LYT collection of the active object (or the only one in the file)."""
    obj = context.active_object
    if obj is not None:
        for collection in obj.users_collection:
            if PROP_ROOMS in collection:
                return collection
    found = [c for c in bpy.data.collections if PROP_ROOMS in c]
    return found[0] if len(found) == 1 else None


def solve(context, collection, walkmesh=None):
    """Runs the package's transition solver over the room objects of `collection` and paints
    the solution back onto their edges. Returns (changed edges, findings)."""
    walkmesh = walkmesh or vendor.load()
    depsgraph = context.evaluated_depsgraph_get()
    rooms = []
    objects = [o for o in collection.objects if o.type == "MESH" and bridge.PROP_LYT_INDEX in o]
    for obj in objects:
        mesh, _ = bridge.object_to_walkmesh(obj, walkmesh, depsgraph, apply_modifiers=False)
        rooms.append((int(obj[bridge.PROP_LYT_INDEX]), obj.name, mesh))
    room_count = len(json.loads(collection[PROP_ROOMS]))
    result = walkmesh.area.solve_mesh_transitions(rooms, room_count=room_count)
    changed = 0
    for obj, solved in zip(objects, result["transitions"]):
        changed += bridge.paint_corner_transitions(obj, solved)
    return changed, list(result.get("findings", []))


class WALKMESH_OT_import_lyt(bpy.types.Operator, ImportHelper):
    bl_idname = "walkmesh.import_lyt"
    bl_label = "Import KotOR Layout"
    bl_description = "Import a LYT and every room walkmesh (<room>.wok) beside it"
    bl_options = {"REGISTER", "UNDO"}
    filename_ext = ".lyt"
    filter_glob: StringProperty(default="*.lyt", options={"HIDDEN"})

    def execute(self, context):
        try:
            _, objects, missing = import_lyt(context, self.filepath)
        except Exception as error:  # the package's errors and file errors alike
            self.report({"ERROR"}, f"{os.path.basename(self.filepath)}: {error}")
            return {"CANCELLED"}
        if missing:
            self.report({"WARNING"}, f"{len(missing)} room(s) have no WOK beside the layout: "
                        + ", ".join(missing[:8]))
        self.report({"INFO"}, f"imported {len(objects)} room(s)")
        return {"FINISHED"}


class WALKMESH_OT_solve_transitions(bpy.types.Operator):
    bl_idname = "walkmesh.solve_transitions"
    bl_label = "Solve Transitions"
    bl_description = ("Find the edges where rooms of the imported layout meet and make them "
                      "transitions to each other's room (and clear stale ones)")
    bl_options = {"REGISTER", "UNDO"}

    @classmethod
    def poll(cls, context):
        return layout_collection(context) is not None and context.mode == "OBJECT"

    def execute(self, context):
        collection = layout_collection(context)
        try:
            changed, findings = solve(context, collection)
        except Exception as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        for finding in findings[:12]:
            if finding.get("severity") in ("error", "warning"):
                self.report({"WARNING"}, f"{finding.get('code')}: {finding.get('message')}")
        self.report({"INFO"}, f"{changed} edge(s) changed")
        return {"FINISHED"}


def _menu_import(self, context):
    self.layout.operator(WALKMESH_OT_import_lyt.bl_idname, text="KotOR layout with rooms (.lyt)")


CLASSES = (WALKMESH_OT_import_lyt, WALKMESH_OT_solve_transitions)


def register():
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.TOPBAR_MT_file_import.append(_menu_import)


def unregister():
    bpy.types.TOPBAR_MT_file_import.remove(_menu_import)
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
