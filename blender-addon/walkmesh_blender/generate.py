"""The panel's Generate button: a walkmesh made from the selected objects' render geometry by
`walkmesh.generate` (the library `walkmesh generate` calls), added as a new object the user
can inspect, lint and export. Objects are taken as Blender evaluates them (modifiers applied)
and placed in the world (their transforms applied); their material names pick the walkable
surface (wood, stone, metal, grass …), as the command line does with a modelled room.

Kind Placeable or Door makes a KotOR placeable's walkmesh (PWK: the footprint the object
blocks, walkable tops within the climb, use points) or a door's closed state (DWK), as
`walkmesh generate --kind` does (docs/generate.md, "Placeables and doors"); these are stored
in the model's coordinates, here the active object's own space."""

import bpy
import numpy as np
from bpy.props import (BoolProperty, EnumProperty, FloatProperty, IntProperty,
                       PointerProperty, StringProperty)

from . import bridge

# Generation presets: the engine decides the defaults (docs/generate.md) and the format the
# new object is marked as, so Export and Lint treat it as that game's walkmesh.
ENGINES = (
    ("kotor", "KotOR", "Room walkmesh (.wok)", 0),
    ("nwn2", "NWN2", "Area walkmesh (.trx)", 1),
    ("prime", "Metroid Prime", "PATH areas", 2),
    ("generic", "Generic", "Recast's defaults", 3),
)
FORMAT_OF_ENGINE = {"kotor": "bwm", "nwn2": "trx", "prime": "path", "generic": None}
# What the walkmesh is for: a room (the engine's area format), or a KotOR object's PWK/DWK.
KINDS = (
    ("area", "Room", "The floor a character reaches (the engine's area walkmesh)", 0),
    ("placeable", "Placeable", "The footprint a KotOR placeable blocks, with walkable tops "
                               "within the climb and use points (.pwk)", 1),
    ("door", "Door", "A KotOR door's closed state: the slab the panel fills (.dwk; the open "
                     "states are not generated)", 2),
)
# The agent settings the panel offers: (operator property, generate keyword, label).
AGENT = (
    ("agent_height", "agent_height", "Height"),
    ("agent_radius", "agent_radius", "Radius"),
    ("max_climb", "max_climb", "Climb"),
    ("max_slope", "max_slope", "Slope"),
    ("min_passage_width", "min_passage_width", "Passage Width"),
)
START_EMPTY = "walkmesh_start"
COLLECTION = "walkmesh"
STARTS = (
    ("AUTO", "Auto", f"A selected empty named {START_EMPTY}, else the engine's start rule "
                     "(the largest floor, passing over roofs and table tops)", 0),
    ("CURSOR", "3D Cursor", "The floor under the 3D cursor", 1),
)
_PRESETS = {}


def render_mesh(obj, walkmesh, depsgraph, space=None):
    """`obj`'s triangles in world coordinates (modifiers applied), or in the space of the
    4 × 4 matrix `space` (world to that space), with its material names in the
    `render:material` column the generator reads."""
    evaluated = obj.evaluated_get(depsgraph) if depsgraph is not None else obj
    mesh = evaluated.to_mesh()
    try:
        mesh.calc_loop_triangles()
        count = len(mesh.loop_triangles)
        coords = np.empty(len(mesh.vertices) * 3, dtype=np.float32)
        mesh.vertices.foreach_get("co", coords)
        matrix = np.array(obj.matrix_world, dtype=np.float64)
        if space is not None:
            matrix = np.array(space, dtype=np.float64) @ matrix
        world = coords.reshape(-1, 3).astype(np.float64) @ matrix[:3, :3].T + matrix[:3, 3]
        triangles = np.empty(count * 3, dtype=np.int64)
        mesh.loop_triangles.foreach_get("vertices", triangles)
        triangles = triangles.reshape(-1, 3)
        if np.linalg.det(matrix[:3, :3]) < 0:
            # A mirroring transform turns every face inside out; turn them back.
            triangles = triangles[:, ::-1]
        slots = np.empty(count, dtype=np.int64)
        mesh.loop_triangles.foreach_get("material_index", slots)
        names = [m.name if m is not None else "" for m in mesh.materials] or [""]
        slots = np.clip(slots, 0, len(names) - 1)
    finally:
        evaluated.to_mesh_clear()
    wm = walkmesh.Mesh.from_arrays(
        world.astype(np.float32),
        np.ascontiguousarray(triangles, dtype=np.uint32),
        face_attributes={"render:material": slots},
    )
    wm.extras = {"render:materials": {"TextList": names}}
    return wm


def generate_from(objects, depsgraph, space=None, **settings):
    """(walkmesh.Mesh, report) generated from `objects`' render geometry (in the space of
    `space`, world to that space, when given)."""
    import walkmesh  # the add-on's vendored package

    inputs = [render_mesh(obj, walkmesh, depsgraph, space) for obj in objects]
    return walkmesh.generate(inputs, with_report=True, **settings)


def preset(engine, kind="area"):
    """The preset's settings (`report["params"]`) of `engine` and `kind`, as the library
    reports them for a one-triangle floor (a room) or a 1 m cube (an object): the library is
    the one place the presets are written down."""
    if (engine, kind) not in _PRESETS:
        import walkmesh

        if kind == "area":
            points, faces = [[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 1, 2]]
        else:
            points = [[x, y, z] for z in (0, 1) for y in (0, 1) for x in (0, 1)]
            faces = [[0, 2, 3], [0, 3, 1], [4, 5, 7], [4, 7, 6], [0, 1, 5], [0, 5, 4],
                     [2, 6, 7], [2, 7, 3], [0, 4, 6], [0, 6, 2], [1, 3, 7], [1, 7, 5]]
        shape = walkmesh.Mesh.from_arrays(np.array(points, dtype=np.float32),
                                          np.array(faces, dtype=np.uint32))
        _, report = walkmesh.generate([shape], engine=engine, kind=kind, with_report=True)
        _PRESETS[(engine, kind)] = report["params"]
    return _PRESETS[(engine, kind)]


def start_empty(objects):
    """The selected empty named walkmesh_start (Blender's .001 copies too), or None."""
    for obj in objects:
        if obj.type == "EMPTY" and obj.name.split(".")[0] == START_EMPTY:
            return obj
    return None


def result_collection(context):
    """The collection generated walkmeshes land in, made (and linked to the scene) if
    missing, so they stay apart from the render geometry they were made from."""
    collection = bpy.data.collections.get(COLLECTION)
    if collection is None:
        collection = bpy.data.collections.new(COLLECTION)
    if collection.name not in context.scene.collection.children:
        context.scene.collection.children.link(collection)
    return collection


class WalkmeshGenerateResult(bpy.types.PropertyGroup):
    """The last generation, for the panel."""
    done: BoolProperty()
    object_name: StringProperty()
    kept: IntProperty()
    kept_area: FloatProperty()
    dropped: IntProperty()
    dropped_area: FloatProperty()
    start: StringProperty()
    faces: IntProperty()
    kind: StringProperty()
    blocked_area: FloatProperty()


class WALKMESH_OT_generate(bpy.types.Operator):
    bl_idname = "walkmesh.generate"
    bl_label = "Generate Walkmesh"
    bl_description = ("Make a walkmesh from the selected objects (floors, walls, props): the "
                      "floor a character can reach, as a new object in the walkmesh collection")
    bl_options = {"REGISTER", "UNDO"}

    engine: EnumProperty(name="Engine", items=ENGINES, default="kotor")
    kind: EnumProperty(name="Kind", items=KINDS, default="area",
                       description="A room's walkmesh, or a KotOR placeable's or door's")
    use_agent: BoolProperty(name="Override Agent", default=False,
                            description="Use the sizes below instead of the engine's preset")
    agent_height: FloatProperty(name="Agent Height", default=2.2, min=0.1, unit="LENGTH")
    agent_radius: FloatProperty(name="Agent Radius", default=0.0, min=0.0, unit="LENGTH")
    max_climb: FloatProperty(name="Max Climb", default=0.25, min=0.0, unit="LENGTH",
                             description="The highest step a character climbs")
    max_slope: FloatProperty(name="Max Slope", default=30.0, min=0.0, max=89.0,
                             description="The steepest walkable floor, in degrees")
    min_passage_width: FloatProperty(name="Passage Width", default=0.8, min=0.0, unit="LENGTH",
                                     description="Narrower passages are closed")
    start: EnumProperty(name="Start", items=STARTS, default="AUTO",
                        description="Where the kept floor is reached from")
    keep_unreachable: BoolProperty(name="Keep Unreachable", default=False,
                                   description="Keep floor no character can walk to "
                                               "(table tops, wall tops)")

    @classmethod
    def poll(cls, context):
        return any(o.type == "MESH" for o in context.selected_objects)

    def settings(self, context):
        """The keywords for walkmesh.generate, and a sentence saying where the start is."""
        if self.kind != "area":
            # A PWK/DWK: KotOR's; no start, nothing dropped (the footprint is everything the
            # object blocks).
            settings = {"engine": "kotor", "kind": self.kind}
            if self.use_agent:
                settings.update({keyword: getattr(self, prop) for prop, keyword, _ in AGENT})
            return settings, None
        settings = {"engine": self.engine, "keep_unreachable": self.keep_unreachable}
        if self.use_agent:
            settings.update({keyword: getattr(self, prop) for prop, keyword, _ in AGENT})
        seed, where = None, None
        if self.start == "CURSOR":
            seed, where = context.scene.cursor.location, "the 3D cursor"
        else:
            empty = start_empty(context.selected_objects)
            if empty is not None:
                seed, where = empty.matrix_world.translation, f"the empty {empty.name}"
        if seed is not None:
            settings["seeds"] = [tuple(float(c) for c in seed)]
        return settings, where

    def execute(self, context):
        objects = [o for o in context.selected_objects if o.type == "MESH"]
        settings, where = self.settings(context)
        space = None
        if self.kind != "area":
            # The model's coordinates: the active object's own space (its origin is where the
            # game stands the object).
            anchor = context.view_layer.objects.active or objects[0]
            space = anchor.matrix_world.inverted()
        try:
            wm, report = generate_from(objects, context.evaluated_depsgraph_get(), space,
                                       **settings)
        except Exception as error:  # the library's message is the user's answer
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        obj, notes = bridge.mesh_to_object(wm, "walkmesh", result_collection(context),
                                           source_format=("bwm" if self.kind != "area"
                                                          else FORMAT_OF_ENGINE[self.engine]))
        for other in context.selected_objects:
            other.select_set(False)
        obj.select_set(True)
        context.view_layer.objects.active = obj
        for warning in wm.warnings:
            self.report({"WARNING"}, f"{warning['code']}: {warning['message']}")
        if report.get("seeds_missed"):
            self.report({"WARNING"}, f"no floor under {where}: the start was not used")
        # Which start rule chose the kept floor when no seed was given (a roof slab or a
        # table top larger than the floor is passed over), as the CLI's report says it.
        rule = (report.get("start") or {}).get("rule")
        start = f"from {where}" if where and not report.get("seeds_missed") else (
            f"start floor by the rule {rule}" if rule else "")
        store_result(context.scene.walkmesh_generate.result, obj, report, start)
        if report.get("object"):
            made = report["object"]
            self.report({"INFO"}, f"{made['kind']}: {report['faces_written']} faces, "
                                  f"{made['blocked_area']:.2f} m² blocked, "
                                  f"{made['walkable_top_area']:.2f} m² walkable top, use points "
                                  f"{'from the model' if made['use_points'] == 'model' else 'in front (-Y)'}")
            return {"FINISHED"}
        self.report({"INFO"}, f"{report['faces_written']} faces, "
                              f"{report['walkable_area']:.2f} m² walkable from "
                              f"{len(objects)} object(s)"
                              + "".join(f"; {n}" for n in [start] + list(notes) if n))
        return {"FINISHED"}


def store_result(result, obj, report, start):
    kept, dropped = report.get("kept") or [], report.get("dropped") or []
    result.done = True
    result.object_name = obj.name
    result.kept = len(kept)
    result.kept_area = sum(piece["area"] for piece in kept)
    result.dropped = len(dropped)
    result.dropped_area = float(report.get("dropped_area") or 0.0)
    result.start = start
    result.faces = int(report["faces_written"])
    made = report.get("object")
    result.kind = made["kind"] if made else "area"
    result.blocked_area = float(made["blocked_area"]) if made else 0.0


def _start_from_preset(settings, _context):
    """Ticking Override Agent starts the sizes at the engine preset's values."""
    if settings.use_agent:
        engine = "kotor" if settings.kind != "area" else settings.engine
        params = preset(engine, settings.kind)
        for prop, keyword, _ in AGENT:
            setattr(settings, prop, params[keyword])


class WalkmeshGenerateSettings(bpy.types.PropertyGroup):
    """The panel's choices, handed to the operator's button."""
    engine: EnumProperty(name="Engine", items=ENGINES, default="kotor")
    kind: EnumProperty(name="Kind", items=KINDS, default="area")
    use_agent: BoolProperty(name="Override Agent", default=False, update=_start_from_preset,
                            description="Use the sizes below instead of the engine's preset")
    agent_height: FloatProperty(name="Height", default=2.2, min=0.1, unit="LENGTH")
    agent_radius: FloatProperty(name="Radius", default=0.0, min=0.0, unit="LENGTH")
    max_climb: FloatProperty(name="Climb", default=0.25, min=0.0, unit="LENGTH")
    max_slope: FloatProperty(name="Slope", default=30.0, min=0.0, max=89.0)
    min_passage_width: FloatProperty(name="Passage Width", default=0.8, min=0.0, unit="LENGTH")
    start: EnumProperty(name="Start", items=STARTS, default="AUTO")
    keep_unreachable: BoolProperty(name="Keep Unreachable", default=False)
    result: PointerProperty(type=WalkmeshGenerateResult)


def draw(layout, context):
    """The panel's Generate section: engine, its preset's agent (or the override), start,
    the button, and what the last generation kept and dropped."""
    settings = context.scene.walkmesh_generate
    col = layout.column(align=True)
    col.label(text="Generate")
    col.prop(settings, "kind")
    if settings.kind == "area":
        col.prop(settings, "engine")
    params = preset("kotor" if settings.kind != "area" else settings.engine, settings.kind)
    box = col.box()
    box.prop(settings, "use_agent")
    for prop, keyword, label in AGENT:
        if settings.use_agent:
            box.prop(settings, prop)
        else:
            unit = "°" if keyword == "max_slope" else " m"
            box.label(text=f"{label}: {params[keyword]:g}{unit} (preset)")
    if settings.kind == "area":
        col.prop(settings, "start")
        col.prop(settings, "keep_unreachable")
    op = col.operator(WALKMESH_OT_generate.bl_idname, text="Generate from Selected")
    for prop in ("engine", "kind", "use_agent", "start", "keep_unreachable") + tuple(
            a[0] for a in AGENT):
        setattr(op, prop, getattr(settings, prop))
    result = settings.result
    if result.done:
        box = layout.box()
        box.label(text=f"{result.object_name}: {result.faces} faces")
        if result.kind in ("placeable", "door"):
            box.label(text=f"{result.kind}: {result.blocked_area:.2f} m² blocked")
        else:
            box.label(text=f"kept {result.kept} floor(s), {result.kept_area:.2f} m²")
            box.label(text=f"dropped {result.dropped}, {result.dropped_area:.2f} m²")
        if result.start:
            box.label(text=result.start)


CLASSES = (WalkmeshGenerateResult, WalkmeshGenerateSettings, WALKMESH_OT_generate)


def register():
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.Scene.walkmesh_generate = PointerProperty(type=WalkmeshGenerateSettings)


def unregister():
    del bpy.types.Scene.walkmesh_generate
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
