"""docs/img/blender-addon-ui.png: Blender's window with data/arm.3ds imported
through the add-on (blender/io_import_kf3ds), mid-animation, and the add-on's
entry open in File > Import. Needs a display, so under Xvfb (Debian's xvfb;
mesa's llvmpipe gives Blender the OpenGL it needs); not run by make test:

    KF3DS_LIBRARY=$PWD/build/libkf3ds.so xvfb-run -a -s "-screen 0 1280x800x24" \\
      blender --factory-startup -noaudio --enable-event-simulate --python dev/screenshots/blender_addon.py \\
      -- data/arm.3ds 24 docs/img/blender-addon-ui.png

The screenshot is taken from timers, because the window and the menu only
draw once Blender's event loop runs; Blender then quits. --enable-event-simulate
lets the script close the splash screen (Esc) and put the pointer where the
menu should open. The PNG is reduced to 256 colours (png8.py) to stay small."""
import os
import sys

import bpy

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "blender"))
import io_import_kf3ds  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import png8  # noqa: E402

path, frame, png = sys.argv[sys.argv.index("--") + 1:][:3]
png = os.path.abspath(png)
io_import_kf3ds.register()


def window_context(area_type=None):
    win = bpy.context.window_manager.windows[0]
    ctx = {"window": win, "screen": win.screen}
    for area in win.screen.areas:
        if area_type is None or area.type == area_type:
            ctx["area"] = area
            ctx["region"] = [r for r in area.regions if r.type == "WINDOW"][0]
            break
    return ctx


def setup():
    win = bpy.context.window_manager.windows[0]
    win.event_simulate(type="ESC", value="PRESS")
    win.event_simulate(type="ESC", value="RELEASE")
    for ob in list(bpy.data.objects):  # the startup cube, camera and light
        bpy.data.objects.remove(ob)
    bpy.ops.import_scene.kf3ds(filepath=os.path.abspath(path))
    bpy.context.scene.frame_set(int(frame))
    cams = [ob for ob in bpy.data.objects if ob.type == "CAMERA"]
    if cams:  # seen through the file's own camera, as kf3ds view's `c` key does
        bpy.context.scene.camera = cams[0]
    area = window_context("VIEW_3D")["area"]
    area.spaces[0].region_3d.view_perspective = "CAMERA" if cams else "PERSP"
    area.spaces[0].shading.type = "SOLID"
    bpy.app.timers.register(open_menu, first_interval=1.0)


def open_menu():
    win = bpy.context.window_manager.windows[0]
    win.event_simulate(type="MOUSEMOVE", value="NOTHING", x=330, y=560)
    with bpy.context.temp_override(**window_context("VIEW_3D")):
        bpy.ops.wm.call_menu(name="TOPBAR_MT_file_import")
    bpy.app.timers.register(hover, first_interval=1.0)


def hover():
    # the pointer down to the add-on's entry, the menu's last (12 rows of 21 px
    # below the first): takes Collada's highlight and tooltip off the menu
    win = bpy.context.window_manager.windows[0]
    win.event_simulate(type="MOUSEMOVE", value="NOTHING", x=300, y=560 - 12 * 21)
    bpy.app.timers.register(shoot, first_interval=1.5)


def shoot():
    with bpy.context.temp_override(**window_context()):
        bpy.ops.screen.screenshot(filepath=png)
    png8.reduce(png)
    print("blender_addon.py: wrote %s" % png)
    bpy.ops.wm.quit_blender()


bpy.app.timers.register(setup, first_interval=1.0)
