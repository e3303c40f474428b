"""Drives `walkmesh view` pages in headless Chromium (selenium + Debian's chromedriver).

Usage: view_check.py WALKMESH OUT_DIR CASE...
where CASE is NAME=FILE[,FILE2]. For each case: the page is written with `walkmesh view`,
loaded from disk, and checked:
  - it becomes ready, and within 2 s of the load starting for the cases named big-*;
  - walkmeshView.faces equals the faces of `walkmesh info --json` (summed over the files);
  - a real mouse click at screenOf(face) selects that face, and the panel
    (#walkmesh-selection) shows a stored field of it with the value and offset that
    `walkmesh dump --format json` gives;
  - setLayer(name) changes the picture (screenshots compared pixel by pixel) for the layers the
    case expects to be visible.
Prints one line per check and "N passed, M failed"; exits 1 when anything failed.
"""

import base64
import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from PIL import Image, ImageChops
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

# The browser set-up shared with scripts/bench_view_ready.py.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from headless_chromium import browser, load_until_ready  # noqa: E402

LOAD_LIMIT_S = 2.0
# Layers that must change the picture, per format (line layers only where the file has them:
# the cases below are chosen so that they do).
EXPECTED_LAYERS = {
    "bwm": ["walkability", "components", "aabb-depth", "boundary", "transitions"],
    "trx": ["walkability", "tiles", "islands", "aabb-depth", "boundary", "visible-links"],
    "path": ["regions", "links", "octree", "aabb-depth"],
    "obj": ["walkability", "boundary"],
}
# The field compared with `walkmesh dump --format json`, per format: (record, field or None).
DUMP_FIELD = {
    "bwm": ("materials[{f}]", None),
    "trx": ("triangles[{f}]", "flags"),
    "path": ("regions[{f}]", "link_count"),
    "obj": None,  # no field dump: the neutral mesh's polygon (checked below)
}

passed = 0
failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {what}")
    else:
        failed += 1
        print(f"FAIL {what}", file=sys.stderr)
    return ok


def run_json(*args):
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def find(node, name):
    """The first node called `name` in the dump tree (depth first)."""
    if node.get("name") == name:
        return node
    for child in node.get("children", []):
        hit = find(child, name)
        if hit is not None:
            return hit
    return None


def screenshot(driver):
    """The WebGL canvas's own pixels (not the page's: the legend and panel drawn over the
    canvas change with the layer too, and must not make a layer look drawn)."""
    url = driver.execute_script(
        "return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() =>"
        " done(document.getElementById('walkmesh-canvas').toDataURL('image/png')))));")
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGB")


def changed_share(a, b):
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 24 else 0)
    histogram = diff.histogram()
    return histogram[255] / max(1, a.width * a.height)


def visible_face(driver, faces):
    """A face whose centre shows that face in the current (top) view, searched from the middle
    of the face list; the page's own picking answers, the click below is the check."""
    return driver.execute_script(
        """
        const n = arguments[0];
        for (let step = 0; step < n; step++) {
          const f = (Math.floor(n / 2) + step) % n;
          const p = walkmeshView.screenOf(f);
          if (!p) continue;
          const r = document.getElementById('walkmesh-canvas').getBoundingClientRect();
          // Stay clear of the panels over the canvas.
          if (p[0] < 340 || p[0] > r.width - 440 || p[1] < 40 || p[1] > r.height - 220) continue;
          // A mouse event lands on a whole pixel: the face must show there, not only at the
          // centre's fractional position (a face a pixel wide can lose it to its neighbour).
          const x = Math.round(p[0]), y = Math.round(p[1]);
          if (walkmeshView.pick(x, y) === f) return [f, x, y];
        }
        return null;""",
        faces,
    )


def click_at(driver, x, y):
    canvas = driver.find_element(By.ID, "walkmesh-canvas")
    rect = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height];",
        canvas,
    )
    # Offsets are from the element's centre in selenium 4.
    dx = x - (rect[0] + rect[2] / 2)
    dy = y - (rect[1] + rect[3] / 2)
    ActionChains(driver).move_to_element_with_offset(canvas, int(round(dx)), int(round(dy))).click().perform()


def panel_row(driver, label):
    """(offset cell, value cell) of the panel row for field `label`, or None."""
    return driver.execute_script(
        """
        for (const tr of document.querySelectorAll('#walkmesh-selection tr[data-field]')) {
          if (tr.dataset.field === arguments[0]) {
            return [tr.children[0].textContent, tr.children[3].textContent];
          }
        }
        return null;""",
        label,
    )


def check_case(driver, walkmesh, out, name, files):
    page = out / f"{name}.html"
    subprocess.run([walkmesh, "view", *files, "-o", str(page)], check=True, capture_output=True)
    seconds = load_until_ready(driver, page)
    if not check(seconds is not None, f"{name}: page ready"):
        return
    print(f"     {name}: ready {seconds:.3f} s after the load started "
          f"(page {page.stat().st_size} bytes, script {driver.execute_script('return walkmeshView.loadMs'):.0f} ms)")
    if name.startswith("big-"):
        check(seconds < LOAD_LIMIT_S, f"{name}: loads in {seconds:.3f} s < {LOAD_LIMIT_S} s")
    infos = [run_json(walkmesh, "info", "--json", f) for f in files]
    faces = driver.execute_script("return walkmeshView.faces")
    check(faces == sum(i["faces"] for i in infos), f"{name}: faces {faces} = walkmesh info's")
    meshes = driver.execute_script("return walkmeshView.meshes")
    check(len(meshes) == len(files), f"{name}: {len(meshes)} meshes")

    driver.execute_script("walkmeshView.view('top')")
    hit = visible_face(driver, faces)
    if check(hit is not None, f"{name}: some face is visible at its centre from the top"):
        face, x, y = hit
        click_at(driver, x, y)
        selected = driver.execute_script("return walkmeshView.selected")
        check(selected is not None and selected["face"] == face,
              f"{name}: clicking at screenOf({face}) selects face {face} (got {selected and selected['face']})")
        mesh_index = selected["mesh"] if selected else 0
        local = selected["meshFace"] if selected else face
        file = files[mesh_index]
        fmt = meshes[mesh_index]["format"]
        dump = run_json(walkmesh, "dump", "--format", "json", file)
        spec = DUMP_FIELD.get(fmt)
        if spec is None:
            label = f"mesh.polygons[{local}]"
            expected_value = dump["mesh"]["polygons"][local]
            expected_offset = None
        else:
            record, field = spec
            record = record.format(f=local)
            node = find(dump, record)
            if field is not None and node is not None:
                node = next((c for c in node.get("children", []) if c["name"] == field), None)
            label = record if field is None else f"{record}.{field}"
            expected_value = node and node.get("value")
            expected_offset = node and node.get("offset")
        row = panel_row(driver, label)
        if check(row is not None, f"{name}: the panel shows {label}"):
            offset_text, value_text = row
            shown_offset = int(offset_text.split()[0]) if offset_text.strip() else None
            check(json.loads(value_text) == expected_value and shown_offset == expected_offset,
                  f"{name}: {label} = {value_text} at {offset_text!r}; dump says "
                  f"{json.dumps(expected_value)} at {expected_offset}")

    layers = driver.execute_script("return walkmeshView.layers")
    base = "overlay" if len(files) > 1 else "materials"
    driver.execute_script("walkmeshView.select(-1); walkmeshView.setLayer(arguments[0])", base)
    time.sleep(0.2)
    before = screenshot(driver)
    expected = ["diff"] if len(files) > 1 else EXPECTED_LAYERS.get(meshes[0]["format"], [])
    for layer in expected:
        if not check(layer in layers, f"{name}: layer {layer} offered"):
            continue
        driver.execute_script("walkmeshView.setLayer(arguments[0])", layer)
        time.sleep(0.2)
        after = screenshot(driver)
        share = changed_share(before, after)
        pixels = round(share * after.width * after.height)
        # At least 50 pixels: two short KotOR transition edges are about 200.
        check(pixels >= 50, f"{name}: setLayer({layer}) changes {pixels} pixels ({share:.2%})")
        driver.execute_script("walkmeshView.setLayer(arguments[0])", base)
        time.sleep(0.1)
    if ROUTE_BIN and len(files) == 1:
        check_routes(driver, name, files[0])
    if name == "wok":
        check_route_clicks(driver, name)
    logs = driver.get_log("browser") if hasattr(driver, "get_log") else []
    for entry in logs:
        print(f"     {name}: browser console: {entry.get('level')} {entry.get('message')}")
    # Chromium's own WebGL performance notes (software GL under load: "GPU stall due to
    # ReadPixels" when the check reads the canvas back) are the browser's, not the page's; every
    # other entry, warnings included, fails. Each entry is printed above either way.
    ours = [e for e in logs if "GL Driver Message" not in str(e.get("message"))]
    check(not ours, f"{name}: no errors in the browser console")


def check_model_case(driver, walkmesh, out, name, wok, model):
    """`view WOK --model MODEL`: the model drawn faintly (hiding it changes pixels), the
    comparison's findings those `lint --model --level pedantic` reports, their layer offered
    and drawn, and a finding in the list selecting its first face, by the API and by a click."""
    page = out / f"{name}.html"
    subprocess.run([walkmesh, "view", wok, "--model", model, "-o", str(page)], check=True,
                   capture_output=True)
    if not check(load_until_ready(driver, page) is not None, f"{name}: page ready"):
        return
    lint = subprocess.run([walkmesh, "lint", wok, "--model", model, "--json", "--level", "pedantic"],
                          capture_output=True, text=True)
    expected = [f["code"] for f in json.loads(lint.stdout)["findings"] if f["code"].startswith("model.")]
    shown = [f["code"] for f in driver.execute_script("return walkmeshView.findings")]
    check(shown == expected and len(shown) > 0,
          f"{name}: the page lists lint --model's {len(expected)} findings (shows {len(shown)})")
    # From the side the model's walls stand above the walkmesh: hiding it shows.
    driver.execute_script("walkmeshView.view('side'); walkmeshView.select(-1); walkmeshView.setLayer('materials')")
    time.sleep(0.2)
    side = screenshot(driver)
    driver.execute_script("walkmeshView.modelVisible = false")
    time.sleep(0.2)
    without = screenshot(driver)
    pixels = round(changed_share(side, without) * without.width * without.height)
    check(pixels >= 500, f"{name}: hiding the model changes {pixels} pixels")
    driver.execute_script("walkmeshView.modelVisible = true; walkmeshView.view('top')")
    time.sleep(0.2)
    with_model = screenshot(driver)
    layers = driver.execute_script("return walkmeshView.layers")
    if check("model findings" in layers, f"{name}: layer model findings offered"):
        driver.execute_script("walkmeshView.setLayer('model findings')")
        time.sleep(0.2)
        pixels = round(changed_share(with_model, screenshot(driver)) * without.width * without.height)
        check(pixels >= 50, f"{name}: the model findings layer changes {pixels} pixels")
    findings = driver.execute_script("return walkmeshView.findings")
    index = next((i for i, f in enumerate(findings) if f["faces"]), None)
    if check(index is not None, f"{name}: a finding names faces"):
        want = findings[index]["faces"][0]
        face = driver.execute_script("return walkmeshView.selectFinding(arguments[0])", index)
        selected = driver.execute_script("return walkmeshView.selected")
        check(face == want and selected is not None and selected["face"] == want,
              f"{name}: selectFinding({index}) selects face {want} (got {face})")
        driver.execute_script("walkmeshView.select(-1)")
        link = driver.find_element("css selector", f'a[data-finding="{index}"]')
        link.click()
        selected = driver.execute_script("return walkmeshView.selected")
        check(selected is not None and selected["face"] == want,
              f"{name}: clicking the finding in the list selects face {want}")
    logs = driver.get_log("browser") if hasattr(driver, "get_log") else []
    ours = [e for e in logs if "GL Driver Message" not in str(e.get("message"))]
    for entry in ours:
        print(f"     {name}: browser console: {entry.get('level')} {entry.get('message')}")
    check(not ours, f"{name}: no errors in the browser console")


# The walkmesh whose `route` command the page's router is compared with: $WALKMESH_ROUTE_BIN,
# else the walkmesh under test when it has the command (set in main).
ROUTE_BIN = None
ROUTE_PAIRS = 6


def has_route(binary):
    if not binary:
        return False
    return subprocess.run([binary, "route", "--help"], capture_output=True).returncode == 0


def check_routes(driver, name, file):
    """walkmeshView.route(a, b) against `walkmesh route --method surface --json` between the
    centres of pairs of walkable faces (the first and last walkable faces, then pairs spread
    over the face list): same reachability, faces and points, and the same length within
    1e-3 relative (the port does the same arithmetic, so it is expected to be exact)."""
    walkable = driver.execute_script(
        "const m = walkmeshView.meshes[0]; const out = [];"
        "for (let f = 0; f < m.faces; f++) if (walkmeshView.walkable(f)) out.push(f); return out;")
    if not check(len(walkable) >= 2, f"{name}: two walkable faces to route between"):
        return
    pairs = [(walkable[0], walkable[-1])]
    step = max(1, len(walkable) // ROUTE_PAIRS)
    for k in range(1, ROUTE_PAIRS):
        pairs.append((walkable[(k * step) % len(walkable)], walkable[(k * 7 * step + 3) % len(walkable)]))
    same = 0
    for a, b in pairs:
        pa, pb = (driver.execute_script("return walkmeshView.centroid(arguments[0])", f) for f in (a, b))
        ours = driver.execute_script("return walkmeshView.route(arguments[0], arguments[1])", pa, pb)
        result = subprocess.run(
            [ROUTE_BIN, "route", file, "--method", "surface", "--json",
             "--from", ",".join(repr(x) for x in pa), "--to", ",".join(repr(x) for x in pb)],
            capture_output=True, text=True)
        if result.returncode == 2:
            ok = "error" in ours
            detail = f"the command refuses ({result.stderr.strip()}); the page says {ours}"
        else:
            theirs = json.loads(result.stdout)
            ok = (ours.get("reachable") == theirs["reachable"] and ours.get("faces") == theirs["faces"]
                  and len(ours.get("points", [])) == len(theirs["points"])
                  and all(abs(x - y) <= 1e-9 * max(1.0, abs(y))
                          for p, q in zip(ours["points"], theirs["points"]) for x, y in zip(p, q)))
            if theirs["length"] is not None:
                ok = ok and ours.get("length") is not None and \
                    abs(ours["length"] - theirs["length"]) <= 1e-3 * max(1e-9, theirs["length"])
            detail = f"page length {ours.get('length')}, command {theirs['length']}"
        same += ok
        check(ok, f"{name}: route {a} -> {b} as `walkmesh route --method surface`: {detail}")
    print(f"     {name}: {same} of {len(pairs)} routes equal the command's")


def check_route_clicks(driver, name):
    """Two clicks with "pick a route" on: the route drawn starts on the first face clicked and
    ends on the second, and the picture changes."""
    driver.execute_script("walkmeshView.view('top'); walkmeshView.select(-1)")
    # A KotOR room's floor lies under non-walkable faces seen from the top: hide those.
    driver.find_element(By.ID, "walkmesh-walkable-only").click()
    walkable = driver.execute_script(
        "const out = []; for (let f = 0; f < walkmeshView.faces; f++)"
        " if (walkmeshView.walkable(f)) out.push(f); return out;")
    # Two walkable faces visible at their centres, far apart in the list.
    hits = []
    for f in walkable[:: max(1, len(walkable) // 40)]:
        hit = driver.execute_script(
            "const p = walkmeshView.screenOf(arguments[0]);"
            "const r = document.getElementById('walkmesh-canvas').getBoundingClientRect();"
            "if (!p || p[0] < 340 || p[0] > r.width - 440 || p[1] < 40 || p[1] > r.height - 220) return null;"
            "return walkmeshView.pick(p[0], p[1]) === arguments[0] ? p : null;", f)
        if hit:
            hits.append((f, hit))
    if not check(len(hits) >= 2, f"{name}: two walkable faces to click a route between"):
        return
    (a, pa), (b, pb) = hits[0], hits[-1]
    before = screenshot(driver)
    driver.find_element(By.ID, "walkmesh-route-pick").click()
    click_at(driver, *pa)
    click_at(driver, *pb)
    time.sleep(0.2)
    answer = driver.execute_script("return walkmeshView.lastRoute")
    ok = bool(answer) and answer.get("reachable") and answer["faces"][0] == a and answer["faces"][-1] == b
    check(ok, f"{name}: clicked route from face {a} to face {b}: "
              f"{answer and {k: answer.get(k) for k in ('reachable', 'length')}}")
    panel = driver.find_element(By.ID, "walkmesh-selection").text
    check("length" in panel, f"{name}: the panel shows the route's length")
    after = screenshot(driver)
    pixels = round(changed_share(before, after) * after.width * after.height)
    check(pixels >= 50, f"{name}: the route is drawn ({pixels} pixels change)")
    driver.find_element(By.ID, "walkmesh-route-pick").click()
    driver.find_element(By.ID, "walkmesh-walkable-only").click()


def main():
    global ROUTE_BIN
    walkmesh, out = sys.argv[1], Path(sys.argv[2])
    ROUTE_BIN = os.environ.get("WALKMESH_ROUTE_BIN") or (walkmesh if has_route(walkmesh) else None)
    if ROUTE_BIN is None:
        print("     notice: this walkmesh has no `route` command; walkmeshView.route is not compared")
    out.mkdir(parents=True, exist_ok=True)
    driver = browser()
    try:
        for case in sys.argv[3:]:
            name, files = case.split("=", 1)
            try:
                if "@" in files:
                    check_model_case(driver, walkmesh, out, name, *files.split("@", 1))
                else:
                    check_case(driver, walkmesh, out, name, files.split(","))
            except Exception as error:  # one broken case must not hide the others
                check(False, f"{name}: {type(error).__name__}: {error}")
    finally:
        driver.quit()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
