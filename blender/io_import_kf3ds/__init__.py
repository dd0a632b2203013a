"""Blender add-on: 3D Studio .3ds import and export with exact keyframer
animation, through the kf3ds library (docs/blender.md).

The add-on's zip (make blender-addon) carries the kf3ds Python package with
libkf3ds.so inside; from a source checkout the package is found in ../python
and the library by KF3DS_LIBRARY or in build/."""
import os
import sys

bl_info = {
    "name": "3D Studio with animation (kf3ds)",
    "author": "kf3ds",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "File > Import / Export > 3D Studio with animation (kf3ds)",
    "description": "Reads and writes .3ds files with their keyframer animation as "
                   "3D Studio plays it (TCB, relative rotations, hide and morph tracks)",
    "category": "Import-Export",
}

_here = os.path.dirname(os.path.abspath(__file__))
# The bundled package first (the zip), else the source tree's python/.
for _p in (_here, os.path.join(os.path.dirname(os.path.dirname(_here)), "python")):
    if os.path.isdir(os.path.join(_p, "kf3ds")) and _p not in sys.path:
        sys.path.insert(0, _p)
        break

import bpy  # noqa: E402
from bpy.props import BoolProperty, StringProperty  # noqa: E402
from bpy_extras.io_utils import ExportHelper, ImportHelper  # noqa: E402


class IMPORT_OT_kf3ds(bpy.types.Operator, ImportHelper):
    """Import a 3D Studio .3ds file with its keyframer animation (kf3ds)"""
    bl_idname = "import_scene.kf3ds"
    bl_label = "Import 3DS (kf3ds)"
    bl_options = {"REGISTER", "UNDO"}
    filename_ext = ".3ds"
    filter_glob: StringProperty(default="*.3ds;*.3DS;*.prj", options={"HIDDEN"})

    def execute(self, context):
        import kf3ds
        from . import importer
        try:
            objs = importer.import_file(context, self.filepath)
        except kf3ds.Error as e:
            self.report({"ERROR"}, "kf3ds: %s" % e)
            return {"CANCELLED"}
        self.report({"INFO"}, "kf3ds: imported %d objects from %s" % (
            len(objs), os.path.basename(self.filepath)))
        return {"FINISHED"}


class EXPORT_OT_kf3ds(bpy.types.Operator, ExportHelper):
    """Export the scene as a 3D Studio .3ds file with its animation (kf3ds)"""
    bl_idname = "export_scene.kf3ds"
    bl_label = "Export 3DS (kf3ds)"
    filename_ext = ".3ds"
    filter_glob: StringProperty(default="*.3ds", options={"HIDDEN"})
    selected_only: BoolProperty(name="Selected only", default=False,
                                description="Export only the selected objects")

    def execute(self, context):
        import kf3ds
        from . import exporter
        try:
            info = exporter.export_file(context, self.filepath,
                                        selected_only=self.selected_only)
        except (kf3ds.Error, ValueError) as e:
            self.report({"ERROR"}, "kf3ds: %s" % e)
            return {"CANCELLED"}
        self.report({"INFO"}, "kf3ds: wrote %s (%s)" % (self.filepath, info))
        return {"FINISHED"}


def _menu_import(self, context):
    self.layout.operator(IMPORT_OT_kf3ds.bl_idname, text="3D Studio with animation (kf3ds) (.3ds)")


def _menu_export(self, context):
    self.layout.operator(EXPORT_OT_kf3ds.bl_idname, text="3D Studio with animation (kf3ds) (.3ds)")


def register():
    bpy.utils.register_class(IMPORT_OT_kf3ds)
    bpy.utils.register_class(EXPORT_OT_kf3ds)
    bpy.types.TOPBAR_MT_file_import.append(_menu_import)
    bpy.types.TOPBAR_MT_file_export.append(_menu_export)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(_menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(_menu_import)
    bpy.utils.unregister_class(EXPORT_OT_kf3ds)
    bpy.utils.unregister_class(IMPORT_OT_kf3ds)
