// walkmesh view: a small WebGL renderer for the inspector page (no library, no network).
// The page's data (element #walkmesh-data) is written by the walkmesh-view crate: per mesh the
// vertices, polygons, triangles, face and line layers (base64 arrays) and the stored fields of
// every face as columns. Z is up, as in the neutral mesh. The JSON is packed: gzipped, then
// base64 (data-encoding="gzip+base64"); the browser's DecompressionStream unpacks it.
(async function () {
  'use strict';
  const started = performance.now();
  function bytesOf(text) {
    const raw = atob(text);
    const out = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }
  async function readData() {
    const element = document.getElementById('walkmesh-data');
    if (element.dataset.encoding !== 'gzip+base64') return JSON.parse(element.textContent);
    if (typeof DecompressionStream === 'undefined') {
      throw new Error('this browser has no DecompressionStream (Chromium 80, Firefox 113, Safari 16.4 or later have)');
    }
    const packed = new Blob([bytesOf(element.textContent.trim())]).stream();
    return JSON.parse(await new Response(packed.pipeThrough(new DecompressionStream('gzip'))).text());
  }
  let data;
  try {
    data = await readData();
  } catch (e) {
    document.getElementById('walkmesh-selection').textContent = 'The page\'s data cannot be read: ' + e.message;
    window.walkmeshView = { ready: false, error: String(e.message) };
    return;
  }

  // ---- decoding -----------------------------------------------------------------------------
  // Little-endian arrays; every browser that runs WebGL today is little-endian.
  const floatsOf = (text) => { const b = bytesOf(text); return new Float32Array(b.buffer, 0, b.length >> 2); };
  const uintsOf = (text) => { const b = bytesOf(text); return new Uint32Array(b.buffer, 0, b.length >> 2); };

  const meshes = data.meshes.map((m, index) => {
    const mesh = {
      index, name: m.name, format: m.format, faces: m.faces, walkable: m.walkable,
      vertices: floatsOf(m.vertices), starts: uintsOf(m.polygonStarts),
      corners: uintsOf(m.polygonCorners), triangles: uintsOf(m.triangles),
      triangleFace: uintsOf(m.triangleFace), fields: m.fields, visible: true,
      faceLayers: {}, lineLayers: {},
    };
    for (const l of m.faceLayers) mesh.faceLayers[l.name] = { colours: bytesOf(l.colours), legend: l.legend };
    for (const l of m.lineLayers) mesh.lineLayers[l.name] = { points: floatsOf(l.points), colours: bytesOf(l.colours), legend: l.legend };
    return mesh;
  });
  // Faces are numbered over all meshes in order: mesh 0's faces first.
  let firstFace = 0;
  for (const m of meshes) { m.firstFace = firstFace; firstFace += m.faces; }
  const totalFaces = firstFace;

  function centroidOf(mesh, face) {
    const s = mesh.starts[face], e = mesh.starts[face + 1];
    const c = [0, 0, 0];
    for (let k = s; k < e; k++) {
      const v = mesh.corners[k] * 3;
      c[0] += mesh.vertices[v]; c[1] += mesh.vertices[v + 1]; c[2] += mesh.vertices[v + 2];
    }
    const n = Math.max(1, e - s);
    return [c[0] / n, c[1] / n, c[2] / n];
  }
  function locate(face) {
    for (const m of meshes) if (face >= m.firstFace && face < m.firstFace + m.faces) return [m, face - m.firstFace];
    return [null, -1];
  }

  // ---- bounds -------------------------------------------------------------------------------
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const m of meshes) {
    for (let i = 0; i < m.vertices.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        const x = m.vertices[i + k];
        if (Number.isFinite(x)) { if (x < lo[k]) lo[k] = x; if (x > hi[k]) hi[k] = x; }
      }
    }
  }
  if (!Number.isFinite(lo[0])) { lo.fill(0); hi.fill(1); }
  const centre = [0, 1, 2].map((k) => (lo[k] + hi[k]) / 2);
  const radius = Math.max(1e-3, Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2);

  // ---- matrices (column-major) --------------------------------------------------------------
  function multiply(a, b) {
    const o = new Float32Array(16);
    for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
      o[c * 4 + r] = s;
    }
    return o;
  }
  function perspective(fovy, aspect, near, far) {
    const f = 1 / Math.tan(fovy / 2), o = new Float32Array(16);
    o[0] = f / aspect; o[5] = f; o[10] = (far + near) / (near - far); o[11] = -1;
    o[14] = 2 * far * near / (near - far);
    return o;
  }
  const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const norm = (a) => { const l = Math.hypot(a[0], a[1], a[2]) || 1; return [a[0] / l, a[1] / l, a[2] / l]; };
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  function lookAt(eye, target, up) {
    const z = norm(sub(eye, target)), x = norm(cross(up, z)), y = cross(z, x);
    return new Float32Array([x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0,
      -dot(x, eye), -dot(y, eye), -dot(z, eye), 1]);
  }

  // Inverse of a 4x4 matrix (cofactors), for turning a click into a ray.
  function invert(m) {
    const a = Array.from(m), o = new Float64Array(16);
    o[0] = a[5] * a[10] * a[15] - a[5] * a[11] * a[14] - a[9] * a[6] * a[15] + a[9] * a[7] * a[14] + a[13] * a[6] * a[11] - a[13] * a[7] * a[10];
    o[4] = -a[4] * a[10] * a[15] + a[4] * a[11] * a[14] + a[8] * a[6] * a[15] - a[8] * a[7] * a[14] - a[12] * a[6] * a[11] + a[12] * a[7] * a[10];
    o[8] = a[4] * a[9] * a[15] - a[4] * a[11] * a[13] - a[8] * a[5] * a[15] + a[8] * a[7] * a[13] + a[12] * a[5] * a[11] - a[12] * a[7] * a[9];
    o[12] = -a[4] * a[9] * a[14] + a[4] * a[10] * a[13] + a[8] * a[5] * a[14] - a[8] * a[6] * a[13] - a[12] * a[5] * a[10] + a[12] * a[6] * a[9];
    o[1] = -a[1] * a[10] * a[15] + a[1] * a[11] * a[14] + a[9] * a[2] * a[15] - a[9] * a[3] * a[14] - a[13] * a[2] * a[11] + a[13] * a[3] * a[10];
    o[5] = a[0] * a[10] * a[15] - a[0] * a[11] * a[14] - a[8] * a[2] * a[15] + a[8] * a[3] * a[14] + a[12] * a[2] * a[11] - a[12] * a[3] * a[10];
    o[9] = -a[0] * a[9] * a[15] + a[0] * a[11] * a[13] + a[8] * a[1] * a[15] - a[8] * a[3] * a[13] - a[12] * a[1] * a[11] + a[12] * a[3] * a[9];
    o[13] = a[0] * a[9] * a[14] - a[0] * a[10] * a[13] - a[8] * a[1] * a[14] + a[8] * a[2] * a[13] + a[12] * a[1] * a[10] - a[12] * a[2] * a[9];
    o[2] = a[1] * a[6] * a[15] - a[1] * a[7] * a[14] - a[5] * a[2] * a[15] + a[5] * a[3] * a[14] + a[13] * a[2] * a[7] - a[13] * a[3] * a[6];
    o[6] = -a[0] * a[6] * a[15] + a[0] * a[7] * a[14] + a[4] * a[2] * a[15] - a[4] * a[3] * a[14] - a[12] * a[2] * a[7] + a[12] * a[3] * a[6];
    o[10] = a[0] * a[5] * a[15] - a[0] * a[7] * a[13] - a[4] * a[1] * a[15] + a[4] * a[3] * a[13] + a[12] * a[1] * a[7] - a[12] * a[3] * a[5];
    o[14] = -a[0] * a[5] * a[14] + a[0] * a[6] * a[13] + a[4] * a[1] * a[14] - a[4] * a[2] * a[13] - a[12] * a[1] * a[6] + a[12] * a[2] * a[5];
    o[3] = -a[1] * a[6] * a[11] + a[1] * a[7] * a[10] + a[5] * a[2] * a[11] - a[5] * a[3] * a[10] - a[9] * a[2] * a[7] + a[9] * a[3] * a[6];
    o[7] = a[0] * a[6] * a[11] - a[0] * a[7] * a[10] - a[4] * a[2] * a[11] + a[4] * a[3] * a[10] + a[8] * a[2] * a[7] - a[8] * a[3] * a[6];
    o[11] = -a[0] * a[5] * a[11] + a[0] * a[7] * a[9] + a[4] * a[1] * a[11] - a[4] * a[3] * a[9] - a[8] * a[1] * a[7] + a[8] * a[3] * a[5];
    o[15] = a[0] * a[5] * a[10] - a[0] * a[6] * a[9] - a[4] * a[1] * a[10] + a[4] * a[2] * a[9] + a[8] * a[1] * a[6] - a[8] * a[2] * a[5];
    const det = a[0] * o[0] + a[1] * o[4] + a[2] * o[8] + a[3] * o[12];
    for (let i = 0; i < 16; i++) o[i] /= det || 1;
    return o;
  }
  function transform(m, v) {
    const w = m[3] * v[0] + m[7] * v[1] + m[11] * v[2] + m[15];
    return [0, 1, 2].map((k) => (m[k] * v[0] + m[4 + k] * v[1] + m[8 + k] * v[2] + m[12 + k]) / w);
  }

  // ---- camera -------------------------------------------------------------------------------
  const camera = { target: centre.slice(), distance: radius * 2.6, yaw: -Math.PI / 2, pitch: 1.1 };
  const MAX_PITCH = Math.PI / 2 - 0.002;
  function eyeOf() {
    const cp = Math.cos(camera.pitch);
    return [camera.target[0] + camera.distance * cp * Math.cos(camera.yaw),
      camera.target[1] + camera.distance * cp * Math.sin(camera.yaw),
      camera.target[2] + camera.distance * Math.sin(camera.pitch)];
  }
  function viewProjection() {
    const aspect = canvas.width / Math.max(1, canvas.height);
    const near = Math.max(camera.distance * 0.01, radius * 1e-4);
    const far = camera.distance + radius * 4;
    return multiply(perspective(Math.PI / 4, aspect, near, far), lookAt(eyeOf(), camera.target, [0, 0, 1]));
  }

  // ---- WebGL --------------------------------------------------------------------------------
  const canvas = document.getElementById('walkmesh-canvas');
  const gl = canvas.getContext('webgl', { antialias: true, preserveDrawingBuffer: true });
  const panel = document.getElementById('walkmesh-selection');
  if (!gl) { panel.textContent = 'This browser has no WebGL: the inspector cannot draw.'; return; }
  const VERTEX = 'attribute vec3 position; attribute vec3 colour; attribute float shade;' +
    'uniform mat4 matrix; varying vec3 tone;' +
    'void main() { gl_Position = matrix * vec4(position, 1.0); tone = colour * shade; }';
  const FRAGMENT = 'precision mediump float; varying vec3 tone; uniform float alpha; void main() { gl_FragColor = vec4(tone, alpha); }';
  function shader(type, source) {
    const s = gl.createShader(type);
    gl.shaderSource(s, source); gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
    return s;
  }
  const program = gl.createProgram();
  gl.attachShader(program, shader(gl.VERTEX_SHADER, VERTEX));
  gl.attachShader(program, shader(gl.FRAGMENT_SHADER, FRAGMENT));
  gl.linkProgram(program);
  const at = { position: gl.getAttribLocation(program, 'position'), colour: gl.getAttribLocation(program, 'colour'),
    shade: gl.getAttribLocation(program, 'shade'), matrix: gl.getUniformLocation(program, 'matrix'),
    alpha: gl.getUniformLocation(program, 'alpha') };
  function buffer(array) {
    const b = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, b); gl.bufferData(gl.ARRAY_BUFFER, array, gl.STATIC_DRAW);
    return b;
  }
  // Draws `count` vertices of `mode` from position/colour(/shade) buffers.
  function draw(mode, positions, colours, shades, count) {
    gl.bindBuffer(gl.ARRAY_BUFFER, positions);
    gl.enableVertexAttribArray(at.position);
    gl.vertexAttribPointer(at.position, 3, gl.FLOAT, false, 0, 0);
    gl.bindBuffer(gl.ARRAY_BUFFER, colours);
    gl.enableVertexAttribArray(at.colour);
    gl.vertexAttribPointer(at.colour, 3, gl.UNSIGNED_BYTE, true, 0, 0);
    if (shades) {
      gl.bindBuffer(gl.ARRAY_BUFFER, shades);
      gl.enableVertexAttribArray(at.shade);
      gl.vertexAttribPointer(at.shade, 1, gl.FLOAT, false, 0, 0);
    } else {
      gl.disableVertexAttribArray(at.shade);
      gl.vertexAttrib1f(at.shade, 1.0);
    }
    gl.drawArrays(mode, 0, count);
  }

  // Per mesh: triangle corners expanded (one colour per face needs unshared corners), a
  // light-and-shade factor per corner, the pick colours (face number + 1 over all meshes) and
  // the wireframe.
  const LIGHT = norm([0.3, 0.5, 1.0]);
  for (const m of meshes) {
    const n = m.triangles.length;
    // Triangles of walkable faces first, so "walkable faces only" draws a prefix.
    const triangleCount = n / 3;
    const order = new Uint32Array(triangleCount);
    let next = 0;
    for (let t = 0; t < triangleCount; t++) if (m.walkable[m.triangleFace[t]] === 1) order[next++] = t;
    m.walkableCornerCount = next * 3;
    for (let t = 0; t < triangleCount; t++) if (m.walkable[m.triangleFace[t]] !== 1) order[next++] = t;
    m.drawOrder = order;
    const pos = new Float32Array(n * 3), shade = new Float32Array(n), pick = new Uint8Array(n * 3);
    for (let slot = 0; slot < triangleCount; slot++) {
      const t = order[slot] * 3, at = slot * 3;
      const p = [0, 1, 2].map((k) => {
        const v = m.triangles[t + k] * 3;
        return [m.vertices[v], m.vertices[v + 1], m.vertices[v + 2]];
      });
      const normal = norm(cross(sub(p[1], p[0]), sub(p[2], p[0])));
      const s = 0.55 + 0.45 * Math.abs(dot(normal, LIGHT));
      const id = m.firstFace + m.triangleFace[t / 3] + 1;
      for (let k = 0; k < 3; k++) {
        pos.set(p[k], (at + k) * 3);
        shade[at + k] = s;
        pick[(at + k) * 3] = id & 255; pick[(at + k) * 3 + 1] = (id >> 8) & 255; pick[(at + k) * 3 + 2] = (id >> 16) & 255;
      }
    }
    m.cornerCount = n;
    m.positionBuffer = buffer(pos);
    m.shadeBuffer = buffer(shade);
    m.pickBuffer = buffer(pick);
    m.colourBuffer = gl.createBuffer();
    let edges = 0;
    for (let f = 0; f < m.faces; f++) edges += m.starts[f + 1] - m.starts[f];
    const wire = new Float32Array(edges * 6);
    let w = 0;
    for (let f = 0; f < m.faces; f++) {
      const s = m.starts[f], e = m.starts[f + 1];
      for (let k = s; k < e; k++) {
        const a = m.corners[k] * 3, b = m.corners[k + 1 < e ? k + 1 : s] * 3;
        wire.set([m.vertices[a], m.vertices[a + 1], m.vertices[a + 2], m.vertices[b], m.vertices[b + 1], m.vertices[b + 2]], w);
        w += 6;
      }
    }
    m.wireBuffer = buffer(wire);
    m.wireColours = buffer(new Uint8Array(edges * 6).fill(40));
    m.wireCount = edges * 2;
    for (const name of Object.keys(m.lineLayers)) {
      const l = m.lineLayers[name];
      const colours = new Uint8Array(l.colours.length * 2);
      for (let i = 0; i < l.colours.length; i += 3) { colours.set(l.colours.subarray(i, i + 3), i * 2); colours.set(l.colours.subarray(i, i + 3), i * 2 + 3); }
      l.positionBuffer = buffer(l.points);
      l.colourBuffer = buffer(colours);
      l.count = l.points.length / 3;
    }
  }

  // ---- the model (`view WALKMESH --model MODEL`) -------------------------------------------
  // Its render triangles (nine floats each, already placed where the comparison put them),
  // drawn faintly under the first mesh; its findings select their faces.
  const model = data.model ? (() => {
    const corners = floatsOf(data.model.triangles);
    const count = corners.length / 3;
    const shade = new Float32Array(count);
    for (let c = 0; c + 2 < count; c += 3) {
      const p = [0, 1, 2].map((k) => [corners[(c + k) * 3], corners[(c + k) * 3 + 1], corners[(c + k) * 3 + 2]]);
      const s = 0.55 + 0.45 * Math.abs(dot(norm(cross(sub(p[1], p[0]), sub(p[2], p[0]))), LIGHT));
      shade[c] = s; shade[c + 1] = s; shade[c + 2] = s;
    }
    return {
      name: data.model.name, findings: data.model.findings || [], visible: true, count,
      positionBuffer: buffer(corners), shadeBuffer: buffer(shade),
      colourBuffer: buffer(new Uint8Array(count * 3).fill(70)),
    };
  })() : null;

  // ---- layers -------------------------------------------------------------------------------
  const layerNames = [];
  for (const m of meshes) for (const name of Object.keys(m.faceLayers).concat(Object.keys(m.lineLayers))) {
    if (!layerNames.includes(name)) layerNames.push(name);
  }
  const state = { layer: meshes.length > 1 ? 'overlay' : 'materials', wireframe: totalFaces <= 60000, walkableOnly: false, selected: null };
  if (!layerNames.includes(state.layer)) state.layer = layerNames[0];
  // A line layer is drawn over the material colours.
  function faceLayerOf(m) {
    return m.faceLayers[state.layer] ? state.layer : 'materials';
  }
  function applyColours() {
    for (const m of meshes) {
      const layer = m.faceLayers[faceLayerOf(m)];
      const out = new Uint8Array(m.cornerCount * 3);
      for (let c = 0; c < m.cornerCount; c++) {
        const f = m.triangleFace[m.drawOrder[Math.floor(c / 3)]] * 3;
        out[c * 3] = layer.colours[f]; out[c * 3 + 1] = layer.colours[f + 1]; out[c * 3 + 2] = layer.colours[f + 2];
      }
      gl.bindBuffer(gl.ARRAY_BUFFER, m.colourBuffer);
      gl.bufferData(gl.ARRAY_BUFFER, out, gl.STATIC_DRAW);
    }
  }

  const SELECTED = [255, 230, 0];
  let selectionBuffers = null;
  function selectionGeometry() {
    if (!state.selected) return null;
    const [m, face] = locate(state.selected.face);
    const pos = [];
    for (let t = 0; t < m.triangleFace.length; t++) {
      if (m.triangleFace[t] !== face) continue;
      for (let k = 0; k < 3; k++) {
        const v = m.triangles[t * 3 + k] * 3;
        pos.push(m.vertices[v], m.vertices[v + 1], m.vertices[v + 2]);
      }
    }
    const colours = new Uint8Array(pos.length);
    for (let i = 0; i < colours.length; i += 3) colours.set(SELECTED, i);
    return { positions: buffer(new Float32Array(pos)), colours: buffer(colours), count: pos.length / 3, mesh: m };
  }

  // ---- picking a route ----------------------------------------------------------------------
  const ROUTE = [230, 0, 120];
  const routeState = { picking: false, points: [], mesh: 0, answer: null, buffers: null };
  // The point of face `face` under client point (x, y): the view ray met with the plane of
  // the face's first triangle.
  function pointOnFace(clientX, clientY, face) {
    const [m, local] = locate(face);
    const rect = canvas.getBoundingClientRect();
    const nx = (clientX - rect.left) / rect.width * 2 - 1, ny = 1 - (clientY - rect.top) / rect.height * 2;
    const inverse = invert(viewProjection());
    const near = transform(inverse, [nx, ny, -1]), far = transform(inverse, [nx, ny, 1]);
    const s = m.starts[local];
    const p = [0, 1, 2].map((k) => { const v = m.corners[s + k] * 3; return [m.vertices[v], m.vertices[v + 1], m.vertices[v + 2]]; });
    const normal = cross(sub(p[1], p[0]), sub(p[2], p[0]));
    const direction = sub(far, near);
    const den = dot(normal, direction);
    if (den === 0) return centroidOf(m, local);
    const t = dot(normal, sub(p[0], near)) / den;
    return [near[0] + direction[0] * t, near[1] + direction[1] * t, near[2] + direction[2] * t];
  }
  function showRoute(answer, mesh) {
    routeState.answer = answer;
    routeState.mesh = mesh;
    routeState.buffers = null;
    if (answer && answer.points && answer.points.length > 1) {
      const pts = [];
      for (let k = 0; k + 1 < answer.points.length; k++) pts.push(...answer.points[k], ...answer.points[k + 1]);
      const colours = new Uint8Array(pts.length);
      for (let i = 0; i < colours.length; i += 3) colours.set(ROUTE, i);
      routeState.buffers = { positions: buffer(new Float32Array(pts)), colours: buffer(colours), count: pts.length / 3 };
    }
    let html = '<b>Route</b> (as <code>walkmesh route --method surface</code>) on ' + escapeText(meshes[mesh].name) + '<br>';
    if (!answer) html += 'Click the start point.';
    else if (answer.error) html += escapeText(answer.error);
    else if (!answer.reachable) html += 'The end cannot be reached from the start.';
    else html += 'length ' + answer.length.toFixed(4) + ', ' + answer.faces.length + ' faces, ' + answer.points.length + ' points' +
      '<pre style="white-space:pre-wrap">' + escapeText(JSON.stringify(answer)) + '</pre>';
    panel.innerHTML = html;
    showLegend();
    redraw();
  }
  function routeClick(clientX, clientY) {
    const face = pickAt(clientX, clientY);
    if (face < 0) return;
    const [m] = locate(face);
    if (routeState.points.length === 0 || routeState.points.length === 2) {
      routeState.points = [pointOnFace(clientX, clientY, face)];
      routeState.mesh = m.index;
      showRoute(null, m.index);
      panel.innerHTML += '<br>start ' + routeState.points[0].map((x) => x.toFixed(3)).join(', ') + '; click the end point.';
      return;
    }
    routeState.points.push(pointOnFace(clientX, clientY, face));
    showRoute(routeBetween(routeState.points[0], routeState.points[1], routeState.mesh), routeState.mesh);
  }

  // ---- drawing ------------------------------------------------------------------------------
  function resize() {
    const ratio = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(canvas.clientWidth * ratio)), h = Math.max(1, Math.round(canvas.clientHeight * ratio));
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  }
  function drawScene(picking) {
    resize();
    gl.viewport(0, 0, canvas.width, canvas.height);
    if (picking) gl.clearColor(0, 0, 0, 1); else gl.clearColor(0.957, 0.957, 0.94, 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.enable(gl.DEPTH_TEST);
    gl.useProgram(program);
    gl.uniformMatrix4fv(at.matrix, false, viewProjection());
    gl.uniform1f(at.alpha, 1.0);
    if (!picking && model && model.visible) {
      // Faint and under the walkmesh: blended, writing no depth, drawn first.
      gl.enable(gl.BLEND);
      // The canvas stays opaque (alpha kept at 1): a translucent canvas would show the page's
      // white through it instead of the model.
      gl.blendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ZERO, gl.ONE);
      gl.depthMask(false);
      gl.uniform1f(at.alpha, 0.25);
      draw(gl.TRIANGLES, model.positionBuffer, model.colourBuffer, model.shadeBuffer, model.count);
      gl.uniform1f(at.alpha, 1.0);
      gl.depthMask(true);
      gl.disable(gl.BLEND);
    }
    // Faces are pushed back a little so lines on them win the depth test; each mesh by a
    // different amount so two coinciding meshes do not flicker (the first one wins).
    gl.enable(gl.POLYGON_OFFSET_FILL);
    for (const m of meshes) {
      if (!m.visible) continue;
      gl.polygonOffset(1, 1 + 4 * m.index);
      draw(gl.TRIANGLES, m.positionBuffer, picking ? m.pickBuffer : m.colourBuffer, picking ? null : m.shadeBuffer,
        state.walkableOnly ? m.walkableCornerCount : m.cornerCount);
    }
    gl.disable(gl.POLYGON_OFFSET_FILL);
    if (picking) return;
    if (selectionBuffers && selectionBuffers.mesh.visible) {
      gl.enable(gl.POLYGON_OFFSET_FILL);
      gl.polygonOffset(0, -2);
      draw(gl.TRIANGLES, selectionBuffers.positions, selectionBuffers.colours, null, selectionBuffers.count);
      gl.disable(gl.POLYGON_OFFSET_FILL);
    }
    if (routeState.buffers && meshes[routeState.mesh].visible) {
      gl.disable(gl.DEPTH_TEST); // the route lies on the ground: drawn whole, over the faces
      gl.lineWidth(3);
      draw(gl.LINES, routeState.buffers.positions, routeState.buffers.colours, null, routeState.buffers.count);
      gl.lineWidth(1);
      gl.enable(gl.DEPTH_TEST);
    }
    for (const m of meshes) {
      if (!m.visible) continue;
      if (state.wireframe) draw(gl.LINES, m.wireBuffer, m.wireColours, null, m.wireCount);
      const l = m.lineLayers[state.layer];
      if (l && l.count > 0) {
        gl.disable(gl.DEPTH_TEST); // links and boxes are shown whole, through the faces
        draw(gl.LINES, l.positionBuffer, l.colourBuffer, null, l.count);
        gl.enable(gl.DEPTH_TEST);
      }
    }
  }
  let pending = false;
  function redraw() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; drawScene(false); });
  }

  // Picking: draw the face numbers into an offscreen buffer and read the pixel under the pointer.
  let pickTarget = null;
  function pickAt(clientX, clientY) {
    resize();
    const w = canvas.width, h = canvas.height;
    if (!pickTarget || pickTarget.w !== w || pickTarget.h !== h) {
      const texture = gl.createTexture();
      gl.bindTexture(gl.TEXTURE_2D, texture);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, w, h, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
      const depth = gl.createRenderbuffer();
      gl.bindRenderbuffer(gl.RENDERBUFFER, depth);
      gl.renderbufferStorage(gl.RENDERBUFFER, gl.DEPTH_COMPONENT16, w, h);
      const fb = gl.createFramebuffer();
      gl.bindFramebuffer(gl.FRAMEBUFFER, fb);
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
      gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, depth);
      pickTarget = { fb, w, h };
    }
    gl.bindFramebuffer(gl.FRAMEBUFFER, pickTarget.fb);
    gl.disable(gl.DITHER);
    drawScene(true);
    const rect = canvas.getBoundingClientRect();
    const x = Math.floor((clientX - rect.left) * w / rect.width);
    const y = h - 1 - Math.floor((clientY - rect.top) * h / rect.height);
    const pixel = new Uint8Array(4);
    gl.readPixels(x, y, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.enable(gl.DITHER);
    redraw();
    const id = pixel[0] | (pixel[1] << 8) | (pixel[2] << 16);
    return id === 0 ? -1 : id - 1;
  }

  // ---- the selection panel ------------------------------------------------------------------
  // The rows of face `face` of mesh `m`: one per column that has a record for the face. A
  // column's offsets, sizes and values are per record; `record` maps faces to records (faces
  // of one NWN2 tile share its record) and `index` gives the index shown in the label.
  function fieldRows(m, face) {
    const rows = [];
    for (const c of m.fields) {
      const index = c.index === 'face' ? face : c.index[face];
      const record = c.record === 'face' ? face : c.record[face];
      if (index === null || index === undefined || record === null || record === undefined) continue;
      let offset = null;
      if (Array.isArray(c.offset)) offset = c.offset[record];
      else if (c.offset) offset = c.offset.base + record * c.offset.stride;
      const size = Array.isArray(c.size) ? c.size[record] : c.size;
      rows.push({ name: c.label.replace('{i}', String(index)), offset, size, value: c.value[record], space: c.space });
    }
    return rows;
  }
  const escapeText = (t) => String(t).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  function showSelection() {
    if (!state.selected) { panel.innerHTML = '<em>Click a face to see its stored fields.</em>'; return; }
    const s = state.selected;
    const [m] = locate(s.face);
    const c = s.centroid.map((x) => x.toFixed(3)).join(', ');
    let html = '<b>' + escapeText(m.name) + '</b> (' + escapeText(m.format) + '): face ' + s.meshFace +
      (meshes.length > 1 ? ' (face ' + s.face + ' of the page)' : '') + '<br>' +
      (m.walkable[s.meshFace] ? 'walkable' : 'not walkable') + ', centre (' + c + ')<br>' +
      (m.fields.length && m.fields[0].space === 'the neutral mesh (this format has no field dump)'
        ? 'This format has no field dump: the neutral mesh is shown, as <code>walkmesh dump</code> does.'
        : 'Stored fields, offsets as <code>walkmesh dump</code> gives them:') +
      '<table><tr><td>offset</td><td>field</td><td>size</td><td>value</td></tr>';
    const spaces = new Set();
    for (const r of s.fields) {
      if (r.space) spaces.add(r.space);
      const known = r.offset !== null && r.offset !== undefined;
      const offset = known ? r.offset + ' (0x' + r.offset.toString(16) + ')' + (r.space ? '*' : '') : '';
      html += '<tr data-field="' + escapeText(r.name) + '"><td class="offset">' + offset + '</td><td>' + escapeText(r.name) +
        '</td><td>' + (r.size === null || r.size === undefined ? '' : r.size) + '</td><td class="value">' +
        escapeText(JSON.stringify(r.value)) + '</td></tr>';
    }
    html += '</table>';
    for (const space of spaces) html += '<div>* offsets in ' + escapeText(space) + '</div>';
    panel.innerHTML = html;
  }
  function select(face) {
    if (face < 0 || face >= totalFaces) {
      state.selected = null;
    } else {
      const [m, local] = locate(face);
      state.selected = { face, mesh: m.index, meshFace: local, centroid: centroidOf(m, local), fields: fieldRows(m, local) };
    }
    selectionBuffers = selectionGeometry();
    api.selected = state.selected;
    showSelection();
    redraw();
  }

  // ---- legend and controls ------------------------------------------------------------------
  const legend = document.getElementById('walkmesh-legend');
  function showLegend() {
    let html = '<b>' + escapeText(state.layer) + '</b>';
    for (const m of meshes) {
      if (!m.visible) continue;
      const face = m.faceLayers[faceLayerOf(m)];
      const line = m.lineLayers[state.layer];
      html += '<h4>' + escapeText(m.name) + '</h4>';
      const entries = face.legend.concat(line ? line.legend : []);
      for (const [colour, text] of entries) html += '<div><span class="swatch" style="background:' + colour + '"></span>' + escapeText(text) + '</div>';
    }
    if (state.wireframe) html += '<div><span class="swatch" style="background:#282828"></span>polygon edges (wireframe)</div>';
    html += '<div><span class="swatch" style="background:#ffe600"></span>selected face</div>';
    if (routeState.buffers) html += '<div><span class="swatch" style="background:#e60078"></span>route</div>';
    legend.innerHTML = html;
  }
  const controls = document.getElementById('walkmesh-controls');
  function buildControls() {
    let html = '<div><b>' + escapeText(data.title) + '</b></div><label>Layer <select id="walkmesh-layer">';
    for (const name of layerNames) html += '<option value="' + escapeText(name) + '">' + escapeText(name) + '</option>';
    html += '</select></label>';
    for (const m of meshes) html += '<label><input type="checkbox" checked data-mesh="' + m.index + '"> ' + escapeText(m.name) + ' (' + m.faces + ' faces)</label>';
    if (model) {
      html += '<label><input type="checkbox" checked id="walkmesh-model"> model ' + escapeText(model.name) + ' (faint)</label>';
      html += '<div id="walkmesh-findings"><b>' + model.findings.length + ' finding(s) against the model</b>';
      model.findings.forEach((f, i) => {
        html += '<div><a href="#" data-finding="' + i + '">' + escapeText(f.code) + ' (' + escapeText(f.level) + ')</a>: ' + escapeText(f.message) + '</div>';
      });
      html += '</div>';
    }
    html += '<label><input type="checkbox" id="walkmesh-walkable-only"> walkable faces only</label>';
    html += '<label><input type="checkbox" id="walkmesh-route-pick"> pick a route (click start, then end)</label>';
    html += '<label><input type="checkbox" id="walkmesh-wireframe"' + (state.wireframe ? ' checked' : '') + '> wireframe</label>' +
      '<button id="walkmesh-top">top</button><button id="walkmesh-side">side</button><button id="walkmesh-reset">reset</button>' +
      '<div style="color:#666">drag: orbit; shift+drag or right drag: pan; wheel: zoom</div>';
    controls.innerHTML = html;
    const layerSelect = document.getElementById('walkmesh-layer');
    layerSelect.value = state.layer;
    layerSelect.addEventListener('change', () => setLayer(layerSelect.value));
    for (const box of controls.querySelectorAll('input[data-mesh]')) {
      box.addEventListener('change', () => { meshes[Number(box.dataset.mesh)].visible = box.checked; showLegend(); redraw(); });
    }
    document.getElementById('walkmesh-wireframe').addEventListener('change', (e) => { state.wireframe = e.target.checked; showLegend(); redraw(); });
    if (model) {
      document.getElementById('walkmesh-model').addEventListener('change', (e) => { model.visible = e.target.checked; redraw(); });
      for (const link of controls.querySelectorAll('a[data-finding]')) {
        link.addEventListener('click', (e) => { e.preventDefault(); selectFinding(Number(link.dataset.finding)); });
      }
    }
    document.getElementById('walkmesh-walkable-only').addEventListener('change', (e) => { state.walkableOnly = e.target.checked; redraw(); });
    document.getElementById('walkmesh-route-pick').addEventListener('change', (e) => {
      routeState.picking = e.target.checked;
      routeState.points = [];
      if (routeState.picking) showRoute(null, routeState.mesh); else { showRoute(null, routeState.mesh); showSelection(); }
    });
    document.getElementById('walkmesh-top').addEventListener('click', () => view('top'));
    document.getElementById('walkmesh-side').addEventListener('click', () => view('side'));
    document.getElementById('walkmesh-reset').addEventListener('click', () => view('reset'));
  }
  // Shows finding `index` of the model comparison: its layer, and its first face selected
  // (faces are the first mesh's). Returns the face, or -1.
  function selectFinding(index) {
    const finding = model && model.findings[index];
    if (!finding) return -1;
    setLayer('model findings');
    const face = finding.faces.length > 0 ? meshes[0].firstFace + finding.faces[0] : -1;
    select(face);
    return face;
  }
  function setLayer(name) {
    if (!layerNames.includes(name)) return false;
    state.layer = name;
    const layerSelect = document.getElementById('walkmesh-layer');
    if (layerSelect) layerSelect.value = name;
    applyColours(); showLegend(); redraw();
    return true;
  }
  function view(which) {
    camera.target = centre.slice();
    camera.yaw = -Math.PI / 2;
    if (which === 'top') { camera.pitch = MAX_PITCH; camera.distance = radius * 2.6; }
    else if (which === 'side') { camera.pitch = 0; camera.distance = radius * 2.6; }
    else { camera.pitch = 1.1; camera.distance = radius * 2.6; }
    redraw();
  }

  // ---- pointer ------------------------------------------------------------------------------
  let drag = null;
  canvas.addEventListener('contextmenu', (e) => e.preventDefault());
  canvas.addEventListener('mousedown', (e) => {
    drag = { x: e.clientX, y: e.clientY, startX: e.clientX, startY: e.clientY, pan: e.shiftKey || e.button === 2 };
  });
  window.addEventListener('mousemove', (e) => {
    if (!drag) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    drag.x = e.clientX; drag.y = e.clientY;
    if (drag.pan) {
      const eye = eyeOf();
      const forward = norm(sub(camera.target, eye));
      const right = norm(cross(forward, [0, 0, 1]));
      const up = cross(right, forward);
      const scale = camera.distance * 0.0015;
      for (let k = 0; k < 3; k++) camera.target[k] += (-dx * right[k] + dy * up[k]) * scale;
    } else {
      camera.yaw -= dx * 0.008;
      camera.pitch = Math.max(-MAX_PITCH, Math.min(MAX_PITCH, camera.pitch + dy * 0.008));
    }
    redraw();
  });
  window.addEventListener('mouseup', (e) => {
    if (!drag) return;
    const moved = Math.hypot(e.clientX - drag.startX, e.clientY - drag.startY);
    drag = null;
    if (moved < 4 && e.button === 0) {
      if (routeState.picking) routeClick(e.clientX, e.clientY); else select(pickAt(e.clientX, e.clientY));
    }
  });
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    camera.distance = Math.max(radius * 0.01, Math.min(radius * 50, camera.distance * Math.exp(e.deltaY * 0.001)));
    redraw();
  }, { passive: false });
  window.addEventListener('resize', redraw);


  // ---- the surface router -------------------------------------------------------------------
  // A port of walkmesh-route's surface router (route/src/surface.rs, whose module comment is
  // the specification): the same arithmetic in the same order in IEEE doubles, so the page
  // finds the same faces, points and length as `walkmesh route --method surface --json`.
  // It routes over the mesh as the command reads it ("as modelled": welded when the format's
  // vertex sharing is incidental), which the page carries in `route` when it differs.
  function makeRouter(m) {
    const source = m.route || null;
    const V = source ? floatsOf(source.vertices) : m.vertices;
    const starts = source ? uintsOf(source.polygonStarts) : m.starts;
    const corners = source ? uintsOf(source.polygonCorners) : m.corners;
    const faces = starts.length - 1;
    const flags = source ? source.walkable : m.walkable;
    const walkable = (f) => flags[f] === 1;
    const halfEdges = corners.length;
    const faceOf = new Uint32Array(halfEdges);
    for (let f = 0; f < faces; f++) for (let h = starts[f]; h < starts[f + 1]; h++) faceOf[h] = f;
    const vertex = (i) => [V[i * 3], V[i * 3 + 1], V[i * 3 + 2]];
    const nextCorner = (h) => { const f = faceOf[h]; return h + 1 < starts[f + 1] ? h + 1 : starts[f]; };
    // Links: an edge whose two vertex indices are used by exactly two walkable half-edges.
    const across = new Int32Array(halfEdges).fill(-1);
    const users = new Map();
    const count = V.length / 3;
    for (let h = 0; h < halfEdges; h++) {
      if (!walkable(faceOf[h])) continue;
      const a = corners[h], b = corners[nextCorner(h)];
      const key = Math.min(a, b) * count + Math.max(a, b);
      const list = users.get(key);
      if (list) list.push(h); else users.set(key, [h]);
    }
    for (const list of users.values()) {
      if (list.length === 2) { across[list[0]] = list[1]; across[list[1]] = list[0]; }
    }
    const cornersOf = (f) => { const out = []; for (let k = starts[f]; k < starts[f + 1]; k++) out.push(vertex(corners[k])); return out; };
    const ends = (h) => [vertex(corners[h]), vertex(corners[nextCorner(h)])];
    const midpoint = (h) => { const [a, b] = ends(h); return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2]; };
    const dist = (p, q) => { const dx = p[0] - q[0], dy = p[1] - q[1], dz = p[2] - q[2]; return Math.sqrt(dx * dx + dy * dy + dz * dz); };
    const crossPlan = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);

    function containsXY(f, px, py) {
      const s = starts[f], e = starts[f + 1], n = e - s;
      let inside = false;
      for (let i = 0; i < n; i++) {
        const a = vertex(corners[s + i]), b = vertex(corners[s + (i + 1) % n]);
        const [ax, ay, bx, by] = [a[0], a[1], b[0], b[1]];
        const c = (bx - ax) * (py - ay) - (by - ay) * (px - ax);
        const within = px >= Math.min(ax, bx) && px <= Math.max(ax, bx) && py >= Math.min(ay, by) && py <= Math.max(ay, by);
        if (c === 0 && within) return true;
        if ((ay > py) !== (by > py) && px < ax + (py - ay) * (bx - ax) / (by - ay)) inside = !inside;
      }
      return inside;
    }
    function heightAt(cs, x, y) {
      let best = null;
      if (cs.length === 0) return 0;
      const a = cs[0];
      for (let i = 1; i + 1 < cs.length; i++) {
        const b = cs[i], c = cs[i + 1];
        const det = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
        if (det === 0) continue;
        const px = x - a[0], py = y - a[1];
        const wb = (px * (c[1] - a[1]) - py * (c[0] - a[0])) / det;
        const wc = ((b[0] - a[0]) * py - (b[1] - a[1]) * px) / det;
        const wa = 1 - wb - wc;
        const least = Math.min(Math.min(wa, wb), wc);
        if (best === null || least > best[0]) best = [least, wa * a[2] + wb * b[2] + wc * c[2]];
      }
      if (best !== null) return best[1];
      let sum = 0;
      for (const c of cs) sum += c[2];
      return sum / cs.length;
    }
    const subV = (p, q) => [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
    const dotV = (p, q) => p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
    const along = (a, d, t) => [a[0] + d[0] * t, a[1] + d[1] * t, a[2] + d[2] * t];
    function closestOnTriangle(p, a, b, c) {
      const ab = subV(b, a), ac = subV(c, a), ap = subV(p, a);
      const d1 = dotV(ab, ap), d2 = dotV(ac, ap);
      if (d1 <= 0 && d2 <= 0) return a;
      const bp = subV(p, b);
      const d3 = dotV(ab, bp), d4 = dotV(ac, bp);
      if (d3 >= 0 && d4 <= d3) return b;
      const vc = d1 * d4 - d3 * d2;
      if (vc <= 0 && d1 >= 0 && d3 <= 0) return along(a, ab, d1 / (d1 - d3));
      const cp = subV(p, c);
      const d5 = dotV(ab, cp), d6 = dotV(ac, cp);
      if (d6 >= 0 && d5 <= d6) return c;
      const vb = d5 * d2 - d1 * d6;
      if (vb <= 0 && d2 >= 0 && d6 <= 0) return along(a, ac, d2 / (d2 - d6));
      const va = d3 * d6 - d5 * d4;
      if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) return along(b, subV(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6)));
      const denom = va + vb + vc;
      if (denom === 0) {
        let best = a;
        for (const x of [b, c]) if (dist(p, x) < dist(p, best)) best = x;
        return best;
      }
      const v = vb / denom, w = vc / denom;
      return [a[0] + ab[0] * v + ac[0] * w, a[1] + ab[1] * v + ac[1] * w, a[2] + ab[2] * v + ac[2] * w];
    }
    function distanceToPolygon(cs, q) {
      if (cs.length === 0) return Infinity;
      const a = cs[0];
      let best = Infinity;
      for (let i = 1; i + 1 < cs.length; i++) best = Math.min(best, dist(q, closestOnTriangle(q, a, cs[i], cs[i + 1])));
      if (cs.length < 3) best = Math.min(best, dist(q, a));
      return best;
    }
    function locate(q) {
      let best = null;
      const fx = Math.fround(q[0]), fy = Math.fround(q[1]);
      for (let f = 0; f < faces; f++) {
        if (!walkable(f) || !containsXY(f, fx, fy)) continue;
        const height = heightAt(cornersOf(f), q[0], q[1]);
        const gap = Math.abs(height - q[2]);
        if (best === null || gap < best[0]) best = [gap, f, height];
      }
      if (best !== null) return { face: best[1], point: [q[0], q[1], best[2]] };
      let near = null;
      for (let f = 0; f < faces; f++) {
        if (!walkable(f)) continue;
        const d = distanceToPolygon(cornersOf(f), q);
        if (near === null || d < near[0]) near = [d, f];
      }
      if (near === null) return { error: 'the mesh has no walkable face' };
      return { error: 'the point is on no walkable face; the nearest is face ' + near[1] + ', ' + near[0].toFixed(4) + ' away' };
    }
    // Binary heap ordered by (f, node, g), smallest first.
    function less(x, y) { return x.f !== y.f ? x.f < y.f : x.node !== y.node ? x.node < y.node : x.g < y.g; }
    function heapPush(heap, item) {
      heap.push(item);
      let i = heap.length - 1;
      while (i > 0) { const p = (i - 1) >> 1; if (!less(heap[i], heap[p])) break; [heap[i], heap[p]] = [heap[p], heap[i]]; i = p; }
    }
    function heapPop(heap) {
      const top = heap[0], last = heap.pop();
      if (heap.length > 0) {
        heap[0] = last;
        let i = 0;
        for (;;) {
          const l = 2 * i + 1, r = l + 1;
          let m = i;
          if (l < heap.length && less(heap[l], heap[m])) m = l;
          if (r < heap.length && less(heap[r], heap[m])) m = r;
          if (m === i) break;
          [heap[i], heap[m]] = [heap[m], heap[i]]; i = m;
        }
      }
      return top;
    }
    const linked = (f) => { const out = []; for (let h = starts[f]; h < starts[f + 1]; h++) if (across[h] >= 0) out.push(h); return out; };
    const FROM_START = -1;
    function search(start, end) {
      const goal = halfEdges;
      const reached = new Map();
      const heap = [];
      const offer = (node, g, h, parent) => {
        const r = reached.get(node);
        if (r === undefined || g < r.g) { reached.set(node, { g, parent }); heapPush(heap, { f: g + h, node, g }); }
      };
      for (const h of linked(start.face)) {
        const mid = midpoint(h);
        offer(h, dist(start.point, mid), dist(mid, end.point), FROM_START);
      }
      let found = false;
      while (heap.length > 0) {
        const entry = heapPop(heap);
        if (entry.node === goal) { found = true; break; }
        const r = reached.get(entry.node);
        if (r !== undefined && entry.g > r.g) continue;
        const back = across[entry.node];
        if (back < 0) continue;
        const face = faceOf[back];
        const mid = midpoint(entry.node);
        if (face === end.face) offer(goal, entry.g + dist(mid, end.point), 0, entry.node);
        for (const next of linked(face)) {
          if (next === back) continue;
          const nextMid = midpoint(next);
          offer(next, entry.g + dist(mid, nextMid), dist(nextMid, end.point), entry.node);
        }
      }
      if (!found) return null;
      const chain = [];
      let node = reached.get(goal).parent;
      const cost = reached.get(goal).g;
      while (node !== FROM_START) { chain.push(node); node = reached.get(node).parent; }
      chain.reverse();
      return [chain, cost];
    }
    function planMean(cs) {
      const n = Math.max(1, cs.length);
      let sx = 0, sy = 0;
      for (const c of cs) { sx += c[0]; sy += c[1]; }
      return [sx / n, sy / n, 0];
    }
    function portals(start, end, crossings) {
      const out = [[start, start]];
      for (const h of crossings) {
        const centre = planMean(cornersOf(faceOf[h]));
        const [a, b] = ends(h);
        out.push(crossPlan(centre, a, b) > 0 ? [b, a] : [a, b]);
      }
      out.push([end, end]);
      return out;
    }
    const planEqual = (p, q) => p[0] === q[0] && p[1] === q[1];
    const planDot = (o, a, b) => (a[0] - o[0]) * (b[0] - o[0]) + (a[1] - o[1]) * (b[1] - o[1]);
    const clockwiseOf = (o, a, b) => { const t = crossPlan(o, a, b); return t < 0 || (t === 0 && planDot(o, a, b) < 0); };
    function funnel(ps) {
      const start = ps[0][0];
      const out = [{ point: start, portal: 0 }];
      let apex = start, left = start, right = start, leftIndex = 0, rightIndex = 0;
      let i = 1;
      while (i < ps.length) {
        const [l, r] = ps[i];
        if (crossPlan(apex, right, r) >= 0) {
          if (planEqual(apex, right) || clockwiseOf(apex, left, r)) { right = r; rightIndex = i; }
          else {
            out.push({ point: left, portal: leftIndex });
            apex = left; right = left; rightIndex = leftIndex; i = leftIndex + 1;
            continue;
          }
        }
        if (crossPlan(apex, left, l) <= 0) {
          if (planEqual(apex, left) || clockwiseOf(apex, l, right)) { left = l; leftIndex = i; }
          else {
            out.push({ point: right, portal: rightIndex });
            apex = right; left = right; leftIndex = rightIndex; i = rightIndex + 1;
            continue;
          }
        }
        i += 1;
      }
      out.push({ point: ps[ps.length - 1][0], portal: ps.length - 1 });
      return out;
    }
    function crossing(a, b, l, r) {
      const d = [b[0] - a[0], b[1] - a[1]], e = [r[0] - l[0], r[1] - l[1]];
      const den = e[0] * d[1] - e[1] * d[0];
      if (den === 0) return null;
      let u = ((a[0] - l[0]) * d[1] - (a[1] - l[1]) * d[0]) / den;
      u = Math.min(Math.max(u, 0), 1);
      return [l[0] + u * (r[0] - l[0]), l[1] + u * (r[1] - l[1]), l[2] + u * (r[2] - l[2])];
    }
    const planLength = (p, q) => { const dx = p[0] - q[0], dy = p[1] - q[1]; return Math.sqrt(dx * dx + dy * dy); };
    function onStraightLine(k, p, n) {
      const toHere = planLength(k, p), onwards = planLength(p, n);
      const turn = Math.abs(crossPlan(k, p, n));
      const ahead = (p[0] - k[0]) * (n[0] - p[0]) + (p[1] - k[1]) * (n[1] - p[1]) >= 0;
      if (turn > 1e-9 * toHere * onwards || !ahead) return false;
      const total = toHere + onwards;
      const zLine = total > 0 ? k[2] + (n[2] - k[2]) * (toHere / total) : k[2];
      return Math.abs(p[2] - zLine) <= 1e-6 * Math.max(Math.abs(zLine), 1);
    }
    function groundPolyline(ps, cs) {
      const full = [];
      const push = (step) => {
        const last = full[full.length - 1];
        if (last && dist(last.point, step.point) <= 1e-9) last.corner = last.corner || step.corner;
        else full.push(step);
      };
      push({ point: cs[0].point, corner: true });
      for (let k = 0; k + 1 < cs.length; k++) {
        const a = cs[k], b = cs[k + 1];
        for (let j = a.portal + 1; j < b.portal; j++) {
          const point = crossing(a.point, b.point, ps[j][0], ps[j][1]);
          if (point) push({ point, corner: false });
        }
        push({ point: b.point, corner: true });
      }
      const kept = [];
      for (let k = 0; k < full.length; k++) {
        const p = full[k].point, next = full[k + 1];
        if (kept.length > 0 && next && onStraightLine(kept[kept.length - 1], p, next.point)) continue;
        kept.push(p);
      }
      return kept;
    }
    function route(start, end) {
      if (start.face === end.face) {
        return { reachable: true, points: [start.point, end.point], faces: [start.face], length: dist(start.point, end.point) };
      }
      const found = search(start, end);
      if (!found) return { reachable: false, points: [], faces: [], length: null };
      const [chain] = found;
      const facesPassed = [start.face];
      for (const h of chain) if (across[h] >= 0) facesPassed.push(faceOf[across[h]]);
      const ps = portals(start.point, end.point, chain);
      const points = groundPolyline(ps, funnel(ps));
      let length = 0;
      for (let k = 0; k + 1 < points.length; k++) length += dist(points[k], points[k + 1]);
      return { reachable: true, points, faces: facesPassed, length };
    }
    return { locate, route };
  }
  // The answer of `walkmesh route --method surface --json` for points a and b on mesh `index`
  // (0: the first file), or {error} when a point is on no walkable face.
  function routeBetween(a, b, index) {
    const m = meshes[index || 0];
    if (!m) return { error: 'no mesh ' + index };
    if (!m.router) m.router = makeRouter(m);
    const start = m.router.locate(a);
    if (start.error) return { error: '--from: ' + start.error };
    const end = m.router.locate(b);
    if (end.error) return { error: '--to: ' + end.error };
    const r = m.router.route(start, end);
    return { reachable: r.reachable, method: 'surface', points: r.points, faces: r.faces, length: r.length, warnings: [] };
  }

  // ---- the test interface -------------------------------------------------------------------
  const api = {
    ready: false,
    faces: totalFaces,
    meshes: meshes.map((m) => ({ name: m.name, format: m.format, faces: m.faces, firstFace: m.firstFace })),
    layers: layerNames.slice(),
    selected: null,
    loadMs: null,
    setLayer,
    view,
    // The model comparison's findings (`view --model`), [] without a model.
    findings: model ? model.findings : [],
    selectFinding,
    // Whether the model is drawn; setting it hides or shows it.
    get modelVisible() { return !!model && model.visible; },
    set modelVisible(on) { if (model) { model.visible = !!on; redraw(); } },
    // Client x, y of the centre of face `face` (numbered over all meshes) in the current view.
    screenOf(face) {
      const [m, local] = locate(face);
      if (!m) return null;
      const c = centroidOf(m, local);
      const p = viewProjection();
      const x = p[0] * c[0] + p[4] * c[1] + p[8] * c[2] + p[12];
      const y = p[1] * c[0] + p[5] * c[1] + p[9] * c[2] + p[13];
      const w = p[3] * c[0] + p[7] * c[1] + p[11] * c[2] + p[15];
      const rect = canvas.getBoundingClientRect();
      return [rect.left + (x / w + 1) / 2 * rect.width, rect.top + (1 - y / w) / 2 * rect.height];
    },
    centroid(face) {
      const [m, local] = locate(face);
      return m ? centroidOf(m, local) : null;
    },
    // The face under client point (x, y), or -1.
    pick: (x, y) => pickAt(x, y),
    select,
    walkable(face) {
      const [m, local] = locate(face);
      return !!m && m.walkable[local] === 1;
    },
    // The last route picked with the mouse (the JSON of `route`), or null.
    get lastRoute() { return routeState.answer; },
    // Same JSON as `walkmesh route FILE --method surface --json --from a --to b`.
    route: (a, b, mesh) => routeBetween(a, b, mesh),
  };
  window.walkmeshView = api;

  buildControls();
  applyColours();
  showLegend();
  drawScene(false);
  api.loadMs = performance.now() - started;
  api.ready = true;
})();
