"""The add-on's panel after Generate from Selected, as a modeller sees it: a screenshot of the
3D view with the Walkmesh sidebar tab open, taken by the real Blender binary under Xvfb (the
picture in blender-addon/README.md). Run with the add-on installed in BLENDER_USER_SCRIPTS:

    SHOT_OUT=panel.png xvfb-run -a -s "-screen 0 1600x1000x24" \
        blender --factory-startup --enable-event-simulate --python screenshot_panel.py
"""
import bpy, sys, os
bpy.context.preferences.view.show_splash = False
OUT = os.environ["SHOT_OUT"]
bpy.ops.preferences.addon_enable(module="walkmesh_blender")
# A room a modeller would make: a floor, a table, a crate.
for o in list(bpy.data.objects):
    bpy.data.objects.remove(o)
bpy.ops.mesh.primitive_plane_add(size=10, location=(0, 0, 0))
floor = bpy.context.active_object
bpy.ops.mesh.primitive_cube_add(size=1, location=(2, 2, 0.5))
bpy.ops.mesh.primitive_cube_add(size=2, location=(-2, -1, 1))
for o in bpy.data.objects:
    o.select_set(True)
bpy.context.view_layer.objects.active = floor
win = bpy.context.window_manager.windows[0]
area = next(a for a in win.screen.areas if a.type == "VIEW_3D")
region = next(r for r in area.regions if r.type == "WINDOW")
with bpy.context.temp_override(window=win, area=area, region=region):
    bpy.ops.walkmesh.generate(engine="kotor")
    bpy.ops.view3d.view_all()
# The made walkmesh over the render floor it came from: hide the floor so the walkmesh shows.
floor.hide_set(True)
space = area.spaces[0]
space.show_region_ui = True
for r in area.regions:
    if r.type == "UI":
        try:
            r.active_panel_category = "Walkmesh"
        except Exception as e:
            print("category:", e)

def click_tab():
    # The sidebar's tabs are drawn along its right edge; "Walkmesh" is the fourth (Item, Tool,
    # View, Walkmesh). A click there is what a user does (--enable-event-simulate).
    ui = next(r for r in area.regions if r.type == "UI")
    x = ui.x + ui.width - 8
    y = area.y + area.height - 230
    for value in ("PRESS", "RELEASE"):
        win.event_simulate(type="LEFTMOUSE", value=value, x=x, y=y)
    bpy.app.timers.register(shoot, first_interval=1.5)
    return None

def shoot():
    with bpy.context.temp_override(window=win, area=area):
        bpy.ops.screen.screenshot_area(filepath=OUT, check_existing=False)
    print("shot", OUT)
    bpy.ops.wm.quit_blender()
    return None

bpy.app.timers.register(click_tab, first_interval=2.0)
