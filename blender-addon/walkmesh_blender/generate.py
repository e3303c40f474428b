"""The panel's Generate button: a walkmesh made from the selected objects' render geometry by
`walkmesh.generate` (the library `walkmesh generate` calls), added as a new object the user
can inspect, lint and export. Objects are taken as Blender evaluates them (modifiers applied)
and placed in the world (their transforms applied); their material names pick the walkable
surface (wood, stone, metal, grass …), as the command line does with a modelled room."""

import bpy
import numpy as np
from bpy.props import BoolProperty, EnumProperty, FloatProperty

from . import bridge

# Generation presets: the engine decides the defaults (docs/generate.md) and the format the
# new object is marked as, so Export and Lint treat it as that game's walkmesh.
ENGINES = (
    ("kotor", "KotOR", "Room walkmesh (.wok): no erosion, 40° slope limit", 0),
    ("nwn2", "NWN2", "Area walkmesh (.trx)", 1),
    ("prime", "Metroid Prime", "PATH areas", 2),
    ("generic", "Generic", "Recast's defaults", 3),
)
FORMAT_OF_ENGINE = {"kotor": "bwm", "nwn2": "trx", "prime": "path", "generic": None}


def render_mesh(obj, walkmesh, depsgraph):
    """`obj`'s triangles in world coordinates (modifiers applied), with its material names in
    the `render:material` column the generator reads."""
    evaluated = obj.evaluated_get(depsgraph) if depsgraph is not None else obj
    mesh = evaluated.to_mesh()
    try:
        mesh.calc_loop_triangles()
        count = len(mesh.loop_triangles)
        coords = np.empty(len(mesh.vertices) * 3, dtype=np.float32)
        mesh.vertices.foreach_get("co", coords)
        matrix = np.array(obj.matrix_world, dtype=np.float64)
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


def generate_from(objects, depsgraph, **settings):
    """(walkmesh.Mesh, report) generated from `objects`' render geometry."""
    import walkmesh  # the add-on's vendored package

    inputs = [render_mesh(obj, walkmesh, depsgraph) for obj in objects]
    return walkmesh.generate(inputs, with_report=True, **settings)


class WALKMESH_OT_generate(bpy.types.Operator):
    bl_idname = "walkmesh.generate"
    bl_label = "Generate Walkmesh"
    bl_description = ("Make a walkmesh from the selected objects (floors, walls, props): the "
                      "floor a character can reach, as a new object")
    bl_options = {"REGISTER", "UNDO"}

    engine: EnumProperty(name="Engine", items=ENGINES, default="kotor")
    use_agent: BoolProperty(name="Override Agent", default=False,
                            description="Use the sizes below instead of the engine's preset")
    agent_height: FloatProperty(name="Agent Height", default=1.4, min=0.1, unit="LENGTH")
    agent_radius: FloatProperty(name="Agent Radius", default=0.0, min=0.0, unit="LENGTH")
    max_slope: FloatProperty(name="Max Slope", default=40.0, min=0.0, max=89.0)
    keep_unreachable: BoolProperty(name="Keep Unreachable", default=False,
                                   description="Keep floor no character can walk to "
                                               "(table tops, wall tops)")

    @classmethod
    def poll(cls, context):
        return any(o.type == "MESH" for o in context.selected_objects)

    def execute(self, context):
        objects = [o for o in context.selected_objects if o.type == "MESH"]
        settings = {"engine": self.engine, "keep_unreachable": self.keep_unreachable}
        if self.use_agent:
            settings.update(agent_height=self.agent_height, agent_radius=self.agent_radius,
                            max_slope=self.max_slope)
        try:
            wm, report = generate_from(objects, context.evaluated_depsgraph_get(), **settings)
        except Exception as error:  # the library's message is the user's answer
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        obj, notes = bridge.mesh_to_object(wm, "walkmesh", context.scene.collection,
                                           source_format=FORMAT_OF_ENGINE[self.engine])
        for other in context.selected_objects:
            other.select_set(False)
        obj.select_set(True)
        context.view_layer.objects.active = obj
        for warning in wm.warnings:
            self.report({"WARNING"}, f"{warning['code']}: {warning['message']}")
        # Which start rule chose the kept floor when no seed was given (a roof slab or a
        # table top larger than the floor is passed over), as the CLI's report says it.
        start = report.get("start")
        chosen = [f"start floor by the rule {start['rule']}"] if start else []
        self.report({"INFO"}, f"{report['faces_written']} faces, "
                              f"{report['walkable_area']:.2f} m² walkable from "
                              f"{len(objects)} object(s)"
                              + "".join(f"; {n}" for n in chosen + list(notes)))
        return {"FINISHED"}


def draw(layout, context):
    """The panel's Generate section."""
    col = layout.column(align=True)
    col.label(text="Generate")
    col.operator(WALKMESH_OT_generate.bl_idname, text="Generate from Selected")


CLASSES = (WALKMESH_OT_generate,)


def register():
    for cls in CLASSES:
        bpy.utils.register_class(cls)


def unregister():
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
