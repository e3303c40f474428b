"""The panel's Generate Area: every room of a KotOR area generated from its render geometry in
area mode, by `walkmesh.area.generate_meshes`: the flow `walkmesh generate MODELS --lyt
AREA.lyt --out-dir OUT` runs (facing doorway floor edges of neighbouring rooms brought onto one
line, the seams' points shared, the transitions between rooms solved). One walkmesh object per
room lands in the walkmesh collection; the room WOKs (and the layout) can be written to a
folder.

The area is a collection. Each collection inside it is a room (its mesh objects, nested ones
too, are the room's geometry; the collection's instance offset is where the layout places
it), and each mesh object directly in it is a room of its own (placed at the object's origin).
A collection made by Import LYT Rooms keeps its layout: the rooms are its objects, named by
their layout room, placed as the LYT says."""

import json
import os

import bpy
from bpy.props import (BoolProperty, CollectionProperty, EnumProperty, FloatProperty,
                       IntProperty, PointerProperty, StringProperty)

from . import bridge, generate, lyt


def _is_result(collection):
    """The walkmesh collection (and what is in it) holds generated walkmeshes, not rooms."""
    results = bpy.data.collections.get(generate.COLLECTION)
    return results is not None and (
        collection == results or collection.name in {c.name for c in results.children_recursive})


def layout_path(collection):
    """The LYT an imported layout collection was read from, if it is still there."""
    path = collection.get(lyt.PROP_LYT)
    return path if path and os.path.isfile(path) else None


def area_rooms(collection):
    """[(room name, mesh objects, position or None)] of the area `collection`, in its order:
    child collections first, then its own mesh objects. Imported layout rooms are named by
    the layout (their LYT index) and placed by it (position None)."""
    rooms = []
    for child in collection.children:
        if _is_result(child):
            continue
        objects = [o for o in child.all_objects if o.type == "MESH"]
        if objects:
            rooms.append((child.name, objects, tuple(child.instance_offset)))
    layout_names = json.loads(collection[lyt.PROP_ROOMS]) if lyt.PROP_ROOMS in collection else []
    for obj in collection.objects:
        if obj.type != "MESH":
            continue
        index = obj.get(bridge.PROP_LYT_INDEX)
        if index is not None and 0 <= int(index) < len(layout_names):
            rooms.append((layout_names[int(index)], [obj], None))
        else:
            rooms.append((obj.name, [obj], tuple(obj.matrix_world.translation)))
    return rooms


def area_collection(context):
    """The panel's chosen area, else the collection of the active object (the area holding
    it when that collection is itself a room)."""
    chosen = context.scene.walkmesh_area.collection
    if chosen is not None:
        return chosen
    obj = context.active_object
    if obj is None or not obj.users_collection:
        return None
    own = obj.users_collection[0]
    if own == context.scene.collection:
        return own
    for parent in bpy.data.collections:
        if own.name in parent.children and lyt.PROP_ROOMS not in own:
            return parent
    return own


def start_seeds(mode, context, collection):
    """Seeds in area coordinates: the 3D cursor, or every walkmesh_start empty in the area
    (each room starts from the ones on its floor); none: each room's door hooks, else the
    engine's start rule."""
    if mode == "CURSOR":
        return [tuple(float(c) for c in context.scene.cursor.location)]
    empties = [o for o in collection.all_objects
               if o.type == "EMPTY" and o.name.split(".")[0] == generate.START_EMPTY]
    return [tuple(float(c) for c in o.matrix_world.translation) for o in empties]


def generate_area(context, collection, directory="", **settings):
    """Runs walkmesh.area.generate_meshes over the rooms of `collection`; returns its report
    and the room names in layout order."""
    import walkmesh

    depsgraph = context.evaluated_depsgraph_get()
    rooms = area_rooms(collection)
    if not rooms:
        raise ValueError(f"the collection {collection.name} holds no room: put each room's "
                         "mesh objects in a collection inside it, or one object per room")
    path = layout_path(collection)
    given = []
    for name, objects, position in rooms:
        meshes = [generate.render_mesh(o, walkmesh, depsgraph) for o in objects]
        given.append((name, meshes) if path else (name, meshes, position))
    keywords = dict(settings)
    if path:
        keywords["lyt"] = path
        names = lyt.read_lyt_rooms(path)
    else:
        keywords["lyt_name"] = bpy.path.clean_name(collection.name)
        names = [name for name, _, _ in rooms]
    if directory:
        keywords["out_dir"] = bpy.path.abspath(directory)
    return walkmesh.area.generate_meshes(given, **keywords), names


def result_collection(context, area):
    """The collection inside the walkmesh collection that holds `area`'s room walkmeshes,
    emptied of the last run's (Ctrl+Z brings them back), marked as a layout so Solve
    Transitions and the room labels work on it."""
    parent = generate.result_collection(context)
    name = f"{area.name} walkmesh"
    collection = parent.children.get(name)
    if collection is None:
        collection = bpy.data.collections.new(name)
        parent.children.link(collection)
    for obj in list(collection.objects):
        bpy.data.objects.remove(obj)
    return collection


def add_room_objects(context, area, report, names, written_layout):
    """One walkmesh object per generated room (its WOK with the transitions); returns them."""
    collection = result_collection(context, area)
    collection[lyt.PROP_ROOMS] = json.dumps(names)
    if written_layout:
        collection[lyt.PROP_LYT] = written_layout
    lowered = [n.lower() for n in names]
    objects = []
    for room in report["rooms"]:
        obj, _ = bridge.mesh_to_object(room["mesh"], f"{room['room']}.wok", collection,
                                       source_format=room["mesh"].source_format)
        obj[bridge.PROP_LYT_INDEX] = lowered.index(room["room"].lower())
        objects.append(obj)
    return objects


class WalkmeshAreaRoom(bpy.types.PropertyGroup):
    """One room of the last Generate Area, for the panel."""
    room: StringProperty()
    object_name: StringProperty()
    faces: IntProperty()
    walkable_area: FloatProperty()
    leads_to: StringProperty()
    doorway_vertices: IntProperty()
    doorway_max_move: FloatProperty()


def room_line(room):
    """The panel's line for a room: faces, area, where it leads, its doorway moves."""
    leads = room.leads_to or "no room"
    moved = (f"doorway {room.doorway_vertices} moved ≤ {room.doorway_max_move * 100:.1f} cm"
             if room.doorway_vertices else "doorway not moved")
    return f"{room.room}: {room.faces} faces, {room.walkable_area:.1f} m², → {leads}; {moved}"


def store_result(settings, report, objects, written):
    settings.rooms.clear()
    for room, obj in zip(report["rooms"], objects):
        item = settings.rooms.add()
        item.room = room["room"]
        item.object_name = obj.name
        item.faces = int(room["faces"])
        item.walkable_area = float(room["walkable_area"])
        item.leads_to = ", ".join(room["leads_to"])
        item.doorway_vertices = int(room["doorway"]["vertices"])
        item.doorway_max_move = float(room["doorway"]["max_move"])
    settings.without_model = ", ".join(report["rooms_without_model"])
    settings.findings = len(report["findings"])
    settings.written = written
    settings.done = True


class WALKMESH_OT_generate_area(bpy.types.Operator):
    bl_idname = "walkmesh.generate_area"
    bl_label = "Generate Area"
    bl_description = ("Make every room's walkmesh of the area collection in one go (KotOR): "
                      "doorways aligned across rooms, transitions solved, one object per room "
                      "in the walkmesh collection; written as room WOKs to the folder if set")
    bl_options = {"REGISTER", "UNDO"}

    collection: StringProperty(name="Area", description="The area collection (empty: the "
                                                        "panel's, else the active object's)")
    directory: StringProperty(name="Folder", subtype="DIR_PATH",
                              description="Write the room WOKs (and the layout) here")
    use_agent: BoolProperty(name="Override Agent", default=False)
    agent_height: FloatProperty(name="Agent Height", default=2.2, min=0.1, unit="LENGTH")
    agent_radius: FloatProperty(name="Agent Radius", default=0.0, min=0.0, unit="LENGTH")
    max_climb: FloatProperty(name="Max Climb", default=0.25, min=0.0, unit="LENGTH")
    max_slope: FloatProperty(name="Max Slope", default=30.0, min=0.0, max=89.0)
    min_passage_width: FloatProperty(name="Passage Width", default=0.8, min=0.0, unit="LENGTH")
    start: EnumProperty(name="Start", items=generate.STARTS, default="AUTO")

    @classmethod
    def poll(cls, context):
        return context.mode == "OBJECT" and (
            context.scene.walkmesh_area.collection is not None
            or context.active_object is not None)

    def area(self, context):
        if self.collection:
            return bpy.data.collections.get(self.collection)
        return area_collection(context)

    def settings(self, context, collection):
        """walkmesh.area.generate_meshes's keywords (the KotOR preset, or the override)."""
        settings = {}
        if self.use_agent:
            settings.update({keyword: getattr(self, prop)
                             for prop, keyword, _ in generate.AGENT})
        seeds = start_seeds(self.start, context, collection)
        if seeds:
            settings["seeds"] = seeds
        return settings

    def execute(self, context):
        collection = self.area(context)
        if collection is None:
            self.report({"ERROR"}, "no area collection: choose one in the panel")
            return {"CANCELLED"}
        try:
            report, names = generate_area(context, collection, self.directory,
                                          **self.settings(context, collection))
        except Exception as error:  # the library's message is the user's answer
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        written = bpy.path.abspath(self.directory) if self.directory else ""
        layout = report["layout"] if written else ""
        objects = add_room_objects(context, collection, report, names, layout)
        store_result(context.scene.walkmesh_area, report, objects, written)
        for finding in report["findings"][:12]:
            self.report({"WARNING"}, finding)
        if report["rooms_without_model"]:
            self.report({"WARNING"}, "layout rooms without geometry: "
                        + ", ".join(report["rooms_without_model"][:8]))
        where = f"; wrote {len(objects)} WOK(s) to {written}" if written else ""
        self.report({"INFO"}, f"{len(objects)} room(s) generated{where}")
        return {"FINISHED"}


class WalkmeshAreaSettings(bpy.types.PropertyGroup):
    """The panel's Generate Area choices and its last result."""
    collection: PointerProperty(name="Area", type=bpy.types.Collection,
                                description="The collection holding the area's rooms "
                                            "(empty: the active object's)")
    directory: StringProperty(name="Folder", subtype="DIR_PATH",
                              description="Write the room WOKs (and the layout) here; "
                                          "empty: only make the objects")
    done: BoolProperty()
    rooms: CollectionProperty(type=WalkmeshAreaRoom)
    without_model: StringProperty()
    findings: IntProperty()
    written: StringProperty()


def draw(layout, context):
    """The panel's Generate Area section: the area, the folder, the button (with Generate's
    agent and start), and each room's result."""
    settings = context.scene.walkmesh_area
    generate_settings = context.scene.walkmesh_generate
    col = layout.column(align=True)
    col.label(text="Generate Area (KotOR)")
    col.prop(settings, "collection")
    col.prop(settings, "directory")
    op = col.operator(WALKMESH_OT_generate_area.bl_idname, text="Generate Area")
    op.collection = settings.collection.name if settings.collection is not None else ""
    op.directory = settings.directory
    for prop in ("use_agent", "start") + tuple(a[0] for a in generate.AGENT):
        setattr(op, prop, getattr(generate_settings, prop))
    if settings.done:
        box = layout.box()
        for room in settings.rooms:
            box.label(text=room_line(room))
        if settings.without_model:
            box.label(text=f"without geometry: {settings.without_model}")
        box.label(text=f"{settings.findings} finding(s)")
        if settings.written:
            box.label(text=f"written to {settings.written}")


CLASSES = (WalkmeshAreaRoom, WalkmeshAreaSettings, WALKMESH_OT_generate_area)


def register():
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.Scene.walkmesh_area = PointerProperty(type=WalkmeshAreaSettings)


def unregister():
    del bpy.types.Scene.walkmesh_area
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
