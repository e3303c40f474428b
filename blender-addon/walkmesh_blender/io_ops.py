"""File > Import and File > Export operators, one pair per format family we write."""

import os

import bpy
from bpy.props import BoolProperty, EnumProperty, FloatProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

from . import bridge, panel, vendor

# (format id, menu label, extensions, default extension per kind)
FORMATS = (
    ("bwm", "KotOR walkmesh", (".wok", ".pwk", ".dwk", ".bwm"),
     {"area": ".wok", "placeable": ".pwk", "door": ".dwk"}),
    ("trx", "NWN2 walkmesh", (".trx", ".trn"), {}),
    ("path", "Metroid Prime PATH", (".path",), {}),
)


def import_file(context, path, walkmesh=None):
    """Reads `path` with the package and adds it to the scene; returns (object, notes)."""
    walkmesh = walkmesh or vendor.load()
    mesh = walkmesh.read(path)
    name = os.path.splitext(os.path.basename(path))[0]
    obj, notes = bridge.mesh_to_object(
        mesh, name, context.collection, source_format=mesh.source_format
    )
    for finding in mesh.warnings:
        if finding.get("severity") in ("warning", "error"):
            notes.append(f"{finding.get('code')}: {finding.get('message')}")
    return obj, notes


def weld_for(obj, weld, weld_distance):
    """The package's `weld=` value for an export. "auto" keeps the game's own connectivity for
    an object imported from a walkmesh format (vertices a game file holds twice are two
    vertices on purpose: welding them joins regions the game keeps apart, as `walkmesh convert`
    does not weld such input either) and welds exactly what the user modelled."""
    if weld == "auto":
        return "off" if obj.get(bridge.PROP_FORMAT) else "exact"
    return weld_distance if weld == "distance" else weld


def export_object(context, obj, path, format_id, weld="auto", weld_distance=0.0,
                  allow_invalid=False, apply_modifiers=True, walkmesh=None):
    """Builds the mesh of `obj` and writes it with the package (welded as `weld_for` says,
    triangulated for triangle formats, every derived table recomputed, checked by our validator
    before the file is renamed into place). Returns (written, findings, notes); findings are
    dicts (severity, code, message) and are also stored for the Walkmesh panel."""
    walkmesh = walkmesh or vendor.load()
    depsgraph = context.evaluated_depsgraph_get()
    mesh, notes = bridge.object_to_walkmesh(obj, walkmesh, depsgraph, apply_modifiers)
    weld_option = weld_for(obj, weld, weld_distance)
    findings = []
    written = False
    try:
        # What our validator finds in the bytes as they would be written (errors, warnings),
        # then the write itself, which checks them again and refuses errors unless allowed.
        findings = list(walkmesh.validate(mesh, format=format_id, weld=weld_option))
        errors = any(f.get("severity") == "error" for f in findings)
        if not errors or allow_invalid:
            report = mesh.write(path, format=format_id, weld=weld_option,
                                allow_invalid=allow_invalid)
            seen = {(f.get("code"), f.get("message")) for f in findings}
            findings += [f for f in report.get("diagnostics", [])
                         if (f.get("code"), f.get("message")) not in seen]
            written = True
    except walkmesh.Error as error:
        findings = list(getattr(error, "findings", None) or [])
        if not findings:
            findings = [{"severity": "error", "code": getattr(error, "code", None) or "error",
                         "message": str(error)}]
    panel.store_findings(context, obj, path, findings, notes, written)
    return written, findings, notes


def _report_findings(operator, findings, notes, written):
    for note in notes:
        operator.report({"WARNING"}, note)
    shown = 0
    for finding in findings:
        if finding.get("severity") not in ("error", "warning") or shown >= 12:
            continue
        # Errors of a file written anyway (Allow Invalid) are warnings of a finished operator.
        level = "ERROR" if finding.get("severity") == "error" and not written else "WARNING"
        operator.report({level}, f"{finding.get('code')}: {finding.get('message')}")
        shown += 1


class _ImportBase(ImportHelper):
    bl_options = {"REGISTER", "UNDO", "PRESET"}
    files: bpy.props.CollectionProperty(type=bpy.types.OperatorFileListElement,
                                        options={"HIDDEN", "SKIP_SAVE"})
    directory: StringProperty(subtype="DIR_PATH", options={"HIDDEN", "SKIP_SAVE"})

    def execute(self, context):
        try:
            walkmesh = vendor.load()
        except ImportError as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        paths = [os.path.join(self.directory, f.name) for f in self.files if f.name]
        if not paths:
            paths = [self.filepath]
        imported = 0
        for path in paths:
            try:
                obj, notes = import_file(context, path, walkmesh)
            except walkmesh.Error as error:
                self.report({"ERROR"}, f"{os.path.basename(path)}: {error}")
                continue
            for note in notes[:12]:
                self.report({"WARNING"}, f"{os.path.basename(path)}: {note}")
            for other in context.selected_objects:
                other.select_set(False)
            obj.select_set(True)
            context.view_layer.objects.active = obj
            imported += 1
        if not imported:
            return {"CANCELLED"}
        self.report({"INFO"}, f"imported {imported} walkmesh(es)")
        return {"FINISHED"}


WELD_ITEMS = (
    ("auto", "Auto", "Off for an object imported from a walkmesh file (the game's own "
     "connectivity is kept), Exact for a mesh modelled in Blender"),
    ("exact", "Exact", "Merge vertices at equal positions (within 4 ulps), as convert does "
     "for modelling-tool input (joins what a game file keeps apart)"),
    ("off", "Off", "Keep every vertex as it is"),
    ("distance", "Distance", "Merge vertices closer than Weld Distance"),
)


class _ExportBase(ExportHelper):
    bl_options = {"REGISTER", "PRESET"}
    weld: EnumProperty(name="Weld", items=WELD_ITEMS, default="auto")
    weld_distance: FloatProperty(name="Weld Distance", default=0.001, min=0.0, precision=4)
    apply_modifiers: BoolProperty(name="Apply Modifiers", default=True)
    allow_invalid: BoolProperty(
        name="Allow Invalid",
        description="Write the file even when our validator finds errors in it "
        "(the game may crash or misbehave on it)",
        default=False,
    )

    @classmethod
    def poll(cls, context):
        obj = context.active_object
        return obj is not None and obj.type == "MESH"

    def invoke(self, context, event):
        obj = context.active_object
        if obj is not None and not self.filepath:
            kind = obj.get(bridge.PROP_KIND, "area")
            ext = self.kind_extensions.get(kind, self.filename_ext)
            self.filepath = bpy.path.ensure_ext(obj.name, ext)
        return ExportHelper.invoke(self, context, event)

    def execute(self, context):
        try:
            walkmesh = vendor.load()
        except ImportError as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        obj = context.active_object
        if obj.mode == "EDIT":
            obj.update_from_editmode()
        try:
            written, findings, notes = export_object(
                context, obj, self.filepath, self.format_id, self.weld, self.weld_distance,
                self.allow_invalid, self.apply_modifiers, walkmesh)
        except (ValueError, TypeError) as error:
            self.report({"ERROR"}, f"cannot build the walkmesh of {obj.name}: {error}")
            return {"CANCELLED"}
        _report_findings(self, findings, notes, written)
        if not written:
            errors = sum(1 for f in findings if f.get("severity") == "error")
            self.report({"ERROR"}, f"not written: {errors} error(s) (see the Walkmesh panel; "
                        "tick Allow Invalid to write anyway)")
            return {"CANCELLED"}
        self.report({"INFO"}, f"wrote {self.filepath}")
        return {"FINISHED"}


def _make_classes():
    classes = []
    for format_id, label, extensions, kind_extensions in FORMATS:
        glob = ";".join("*" + e for e in extensions)
        shown = "/".join(extensions)
        importer = type(
            f"WALKMESH_OT_import_{format_id}",
            (_ImportBase, bpy.types.Operator),
            {
                "bl_idname": f"import_scene.walkmesh_{format_id}",
                "bl_label": f"Import {label}",
                "bl_description": f"Import a {label} ({shown}) as a mesh object",
                "filename_ext": extensions[0],
                "__annotations__": {
                    "filter_glob": StringProperty(default=glob, options={"HIDDEN"}),
                },
                "menu_label": f"{label} ({shown})",
            },
        )
        exporter = type(
            f"WALKMESH_OT_export_{format_id}",
            (_ExportBase, bpy.types.Operator),
            {
                "bl_idname": f"export_scene.walkmesh_{format_id}",
                "bl_label": f"Export {label}",
                "bl_description": f"Export the active mesh object as a {label} ({shown})",
                "filename_ext": extensions[0],
                # Any of the family's extensions is kept as typed (.pwk, .TRN).
                "check_extension": None,
                "format_id": format_id,
                "kind_extensions": kind_extensions,
                "__annotations__": {
                    "filter_glob": StringProperty(default=glob, options={"HIDDEN"}),
                },
                "menu_label": f"{label} ({shown})",
            },
        )
        classes.append((importer, exporter))
    return classes


CLASSES = _make_classes()


def _menu_import(self, context):
    for importer, _ in CLASSES:
        self.layout.operator(importer.bl_idname, text=importer.menu_label)


def _menu_export(self, context):
    for _, exporter in CLASSES:
        self.layout.operator(exporter.bl_idname, text=exporter.menu_label)


def register():
    for importer, exporter in CLASSES:
        bpy.utils.register_class(importer)
        bpy.utils.register_class(exporter)
    bpy.types.TOPBAR_MT_file_import.append(_menu_import)
    bpy.types.TOPBAR_MT_file_export.append(_menu_export)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(_menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(_menu_import)
    for importer, exporter in reversed(CLASSES):
        bpy.utils.unregister_class(exporter)
        bpy.utils.unregister_class(importer)
