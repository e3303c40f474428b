"""The panel's Lint button: `walkmesh.Mesh.lint()` on the active object, findings listed in the
panel, and a button per finding that selects its faces. Faces are numbered as Blender numbers
the object's polygons (the add-on hands the library one face per polygon, in order). The other
selected mesh objects, if any, are the render geometry the walkmesh is compared with
(`Mesh.lint(model=...)`, `walkmesh lint --model`: the `model.*` codes, docs/lint.md), read as
Generate from Selected reads them."""

import bmesh
import bpy
from bpy.props import BoolProperty, CollectionProperty, IntProperty, StringProperty

from . import bridge

# Format the object was imported from → whose steepness rules apply (docs/lint.md).
ENGINE_OF_FORMAT = {"bwm": "kotor", "trx": "nwn2", "trn": "nwn2", "path": "prime"}


class WalkmeshLintFinding(bpy.types.PropertyGroup):
    code: StringProperty()
    severity: StringProperty()
    message: StringProperty()
    faces: StringProperty(description="Face indices, comma-separated")
    fixable: BoolProperty()


class WalkmeshLintResults(bpy.types.PropertyGroup):
    findings: CollectionProperty(type=WalkmeshLintFinding)
    object_name: StringProperty()
    done: BoolProperty()


def finding_faces(finding):
    return [int(f) for f in finding.faces.split(",") if f]


def lint_object(obj, models=(), depsgraph=None):
    """The lint findings (dicts, as `walkmesh lint --json`) of `obj` as it stands, compared
    with the render geometry of the mesh objects `models` when there are any."""
    import walkmesh  # the add-on's vendored package

    from .generate import render_mesh

    wm, _notes = bridge.object_to_walkmesh(obj, walkmesh, depsgraph=None, apply_modifiers=False)
    engine = ENGINE_OF_FORMAT.get(str(obj.get(bridge.PROP_FORMAT, "")), "generic")
    if not models:
        return wm.lint(engine=engine)
    render = [render_mesh(model, walkmesh, depsgraph) for model in models]
    return wm.lint(engine=engine, model=render)


class WALKMESH_OT_lint(bpy.types.Operator):
    bl_idname = "walkmesh.lint"
    bl_label = "Lint"
    bl_description = ("Find walkmesh defects (downward, steep, degenerate or overlapping faces, "
                      "T-junctions, open and height seams, islands) in the active object; with "
                      "other mesh objects selected, also compare it with them as its render "
                      "geometry (walking on air, floating, inside props, left-out floor)")

    @classmethod
    def poll(cls, context):
        obj = context.active_object
        return obj is not None and obj.type == "MESH"

    def execute(self, context):
        obj = context.active_object
        if obj.mode == "EDIT":
            obj.update_from_editmode()
        models = [o for o in context.selected_objects if o.type == "MESH" and o is not obj]
        findings = lint_object(obj, models, context.evaluated_depsgraph_get())
        results = context.scene.walkmesh_lint
        results.findings.clear()
        results.object_name = obj.name
        results.done = True
        for finding in findings:
            item = results.findings.add()
            item.code = finding["code"]
            item.severity = finding["severity"]
            item.message = finding["message"]
            item.faces = ",".join(str(f) for f in finding["faces"])
            item.fixable = bool(finding["fixable"])
        self.report({"INFO"}, f"{len(findings)} finding(s) in {obj.name}")
        return {"FINISHED"}


class WALKMESH_OT_lint_select(bpy.types.Operator):
    bl_idname = "walkmesh.lint_select"
    bl_label = "Select Finding's Faces"
    bl_description = "Select the faces of this finding (and nothing else) in Edit Mode"
    bl_options = {"REGISTER", "UNDO"}

    index: IntProperty(min=0)

    def execute(self, context):
        results = context.scene.walkmesh_lint
        obj = bpy.data.objects.get(results.object_name)
        if obj is None or self.index >= len(results.findings):
            self.report({"WARNING"}, "run Lint again: the findings are out of date")
            return {"CANCELLED"}
        faces = set(finding_faces(results.findings[self.index]))
        if obj.mode != "EDIT":
            if context.mode != "OBJECT":
                bpy.ops.object.mode_set(mode="OBJECT")  # out of another object's Edit Mode
            context.view_layer.objects.active = obj
            obj.select_set(True)
            bpy.ops.object.mode_set(mode="EDIT")
        # Selected through BMesh in Edit Mode: writing MeshEdge.select on a mesh built from
        # arrays (an imported walkmesh) crashes Blender 5.0, and BMesh works the same in 3.x.
        bm = bmesh.from_edit_mesh(obj.data)
        for elements in (bm.verts, bm.edges, bm.faces):
            for element in elements:
                element.select_set(False)
        for face in bm.faces:
            if face.index in faces:
                face.select_set(True)  # selects its edges and vertices too
        bm.select_mode = {"FACE"}
        bm.select_flush_mode()
        bmesh.update_edit_mesh(obj.data)
        bpy.ops.mesh.select_mode(type="FACE")
        self.report({"INFO"}, f"{len(faces)} face(s) selected")
        return {"FINISHED"}


def draw(layout, context):
    """The panel's Lint section."""
    col = layout.column(align=True)
    col.label(text="Lint")
    col.operator(WALKMESH_OT_lint.bl_idname, text="Lint")
    results = context.scene.walkmesh_lint
    if not results.done:
        return
    box = layout.box()
    box.label(text=f"{results.object_name}: {len(results.findings)} finding(s)")
    for index, finding in enumerate(list(results.findings)[:40]):
        row = box.row(align=True)
        icon = {"error": "ERROR", "warning": "INFO"}.get(finding.severity, "DOT")
        row.label(text=f"{finding.code}: {finding.message}", icon=icon)
        button = row.operator(WALKMESH_OT_lint_select.bl_idname, text="", icon="RESTRICT_SELECT_OFF")
        button.index = index


CLASSES = (WalkmeshLintFinding, WalkmeshLintResults, WALKMESH_OT_lint, WALKMESH_OT_lint_select)


def register():
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.Scene.walkmesh_lint = bpy.props.PointerProperty(type=WalkmeshLintResults)


def unregister():
    del bpy.types.Scene.walkmesh_lint
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
