"""The Walkmesh sidebar panel (3D View > Sidebar > Walkmesh) and the findings it shows."""

import bpy
from bpy.props import (CollectionProperty, IntProperty, PointerProperty, StringProperty,
                       BoolProperty)

from . import bridge


class WalkmeshFinding(bpy.types.PropertyGroup):
    severity: StringProperty()
    code: StringProperty()
    message: StringProperty()


class WalkmeshSceneSettings(bpy.types.PropertyGroup):
    room: IntProperty(
        name="Room",
        description="LYT index of the room a painted transition leads to",
        default=0,
        min=0,
        max=254,
    )
    show_rooms: BoolProperty(
        name="Show Rooms",
        description="Draw the room number of every transition edge of the selected objects",
        default=True,
    )
    findings: CollectionProperty(type=WalkmeshFinding)
    findings_object: StringProperty()
    findings_file: StringProperty()
    findings_written: BoolProperty()


def store_findings(context, obj, path, findings, notes, written):
    settings = context.scene.walkmesh
    settings.findings.clear()
    settings.findings_object = obj.name
    settings.findings_file = path
    settings.findings_written = written
    for note in notes:
        item = settings.findings.add()
        item.severity, item.code, item.message = "warning", "blender.note", note
    for finding in findings:
        item = settings.findings.add()
        item.severity = str(finding.get("severity") or "")
        item.code = str(finding.get("code") or "")
        item.message = str(finding.get("message") or "")


class WALKMESH_PT_main(bpy.types.Panel):
    bl_label = "Walkmesh"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "Walkmesh"

    def draw(self, context):
        layout = self.layout
        settings = context.scene.walkmesh
        obj = context.active_object
        if obj is not None and obj.type == "MESH":
            box = layout.box()
            box.label(text=f"{obj.name}: {obj.get(bridge.PROP_KIND, 'area')}"
                      f" ({obj.get(bridge.PROP_FORMAT, 'new')})")
            if bridge.PROP_LYT_INDEX in obj:
                box.label(text=f"LYT room {obj[bridge.PROP_LYT_INDEX]}")
            box.operator("walkmesh.open_inspector", text="Open Inspector")

        from . import generate
        generate.draw(layout, context)
        if hasattr(context.scene, "walkmesh_area"):
            from . import area_generate
            area_generate.draw(layout, context)

        col = layout.column(align=True)
        col.label(text="Transitions")
        col.prop(settings, "room")
        col.prop(settings, "show_rooms")
        row = col.row(align=True)
        row.operator("walkmesh.transition_apply", text="Apply")
        row.operator("walkmesh.transition_clear", text="Clear")
        col.operator("walkmesh.transition_select", text="Select Room's Edges")

        col = layout.column(align=True)
        col.label(text="Area (LYT)")
        col.operator("walkmesh.import_lyt", text="Import LYT Rooms")
        col.operator("walkmesh.solve_transitions", text="Solve Transitions")

        if hasattr(context.scene, "walkmesh_lint"):
            from . import lint
            lint.draw(layout, context)

        if settings.findings_file:
            box = layout.box()
            state = "written" if settings.findings_written else "NOT written"
            box.label(text=f"Last export: {state}")
            box.label(text=bpy.path.basename(settings.findings_file))
            errors = sum(1 for f in settings.findings if f.severity == "error")
            warnings = sum(1 for f in settings.findings if f.severity == "warning")
            box.label(text=f"{errors} error(s), {warnings} warning(s)")
            for finding in list(settings.findings)[:40]:
                icon = {"error": "ERROR", "warning": "INFO"}.get(finding.severity, "DOT")
                box.label(text=f"{finding.code}: {finding.message}", icon=icon)


CLASSES = (WalkmeshFinding, WalkmeshSceneSettings, WALKMESH_PT_main)


def register():
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.Scene.walkmesh = PointerProperty(type=WalkmeshSceneSettings)


def unregister():
    del bpy.types.Scene.walkmesh
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
