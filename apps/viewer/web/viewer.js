// SPDX-License-Identifier: MIT
// The viewer page's script (inlined by `proxima view`): draws the shapes and answers of one scene
// query at a time with three.js. Its data (page_data.hpp) holds each shape's triangles in its local
// frame, each query's poses, its `proxima run` answer and, for moving queries, sampled poses.
// World frame: z up, as in the scene files.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

const data = JSON.parse(document.getElementById('proxima-data').textContent);

const COLOR = {
  a: 0x4f8fe0,
  b: 0xe8873f,
  closest: 0xffd23f,
  normal: 0x35d07f,
  penetration: 0xff4d4d,
  contact: 0xff3ea5,
  proper: 0x35d07f,
  improper: 0xffa020,
  pathA: 0x9cc2ff,
  pathB: 0xffc08f,
  plane: 0xb58cff,
  common: 0xffffff,
};
const hex = (c) => '#' + c.toString(16).padStart(6, '0');

// ---------------------------------------------------------------------------------------------
// Renderer, camera, lights, controls.
const view = document.getElementById('view');
const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(window.devicePixelRatio || 1);
view.prepend(renderer.domElement);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x1b2029);
const camera = new THREE.PerspectiveCamera(40, 1, 0.01, 1000);
camera.up.set(0, 0, 1);
scene.add(new THREE.HemisphereLight(0xe8eeff, 0x303040, 1.6));
const sun = new THREE.DirectionalLight(0xffffff, 1.8);
sun.position.set(0.4, -0.6, 1);
camera.add(sun);
scene.add(camera);
const controls = new OrbitControls(camera, renderer.domElement);
controls.enableDamping = true;
const content = new THREE.Group();
scene.add(content);

function resize() {
  const w = Math.max(view.clientWidth, 1);
  const h = Math.max(view.clientHeight, 1);
  renderer.setSize(w, h);
  camera.aspect = w / h;
  camera.updateProjectionMatrix();
}
new ResizeObserver(resize).observe(view);
resize();

// ---------------------------------------------------------------------------------------------
// Shapes: non-indexed geometry with normals averaged only across faces that meet at less than a
// crease angle, so boxes and cylinder rims stay sharp and tessellated curves look smooth.
const CREASE_COS = Math.cos((35 * Math.PI) / 180);
const geometryCache = new Map();

function shapeGeometry(name) {
  if (geometryCache.has(name)) return geometryCache.get(name);
  const shape = data.shapes[name];
  let result = null;
  if (shape && shape.positions) {
    const P = shape.positions;
    const T = shape.triangles;
    const nv = P.length / 3;
    const nt = T.length / 3;
    const faceNormal = new Float32Array(nt * 3);
    const vertexFaces = Array.from({ length: nv }, () => []);
    const u = new THREE.Vector3(), v = new THREE.Vector3(), w = new THREE.Vector3();
    for (let t = 0; t < nt; ++t) {
      const [i, j, k] = [T[3 * t], T[3 * t + 1], T[3 * t + 2]];
      u.set(P[3 * j] - P[3 * i], P[3 * j + 1] - P[3 * i + 1], P[3 * j + 2] - P[3 * i + 2]);
      v.set(P[3 * k] - P[3 * i], P[3 * k + 1] - P[3 * i + 1], P[3 * k + 2] - P[3 * i + 2]);
      w.crossVectors(u, v).normalize();
      faceNormal.set([w.x, w.y, w.z], 3 * t);
      vertexFaces[i].push(t);
      vertexFaces[j].push(t);
      vertexFaces[k].push(t);
    }
    const positions = new Float32Array(nt * 9);
    const normals = new Float32Array(nt * 9);
    for (let t = 0; t < nt; ++t) {
      for (let c = 0; c < 3; ++c) {
        const vid = T[3 * t + c];
        w.set(0, 0, 0);
        for (const f of vertexFaces[vid]) {
          const dot = faceNormal[3 * f] * faceNormal[3 * t] + faceNormal[3 * f + 1] * faceNormal[3 * t + 1] +
            faceNormal[3 * f + 2] * faceNormal[3 * t + 2];
          if (dot >= CREASE_COS) w.add(u.set(faceNormal[3 * f], faceNormal[3 * f + 1], faceNormal[3 * f + 2]));
        }
        w.normalize();
        positions.set([P[3 * vid], P[3 * vid + 1], P[3 * vid + 2]], 9 * t + 3 * c);
        normals.set([w.x, w.y, w.z], 9 * t + 3 * c);
      }
    }
    const surface = new THREE.BufferGeometry();
    surface.setAttribute('position', new THREE.BufferAttribute(positions, 3));
    surface.setAttribute('normal', new THREE.BufferAttribute(normals, 3));
    surface.computeBoundingSphere();
    result = { surface, edges: new THREE.EdgesGeometry(surface, 30) };
  }
  geometryCache.set(name, result);
  return result;
}

function makeBody(name, color) {
  const body = new THREE.Group();
  const g = shapeGeometry(name);
  if (!g) return body;
  body.add(new THREE.Mesh(g.surface, new THREE.MeshStandardMaterial({
    color, roughness: 0.55, metalness: 0.05, transparent: true, opacity: 0.62, depthWrite: false,
    side: THREE.DoubleSide,
  })));
  const edgeColor = new THREE.Color(color).multiplyScalar(0.55);
  body.add(new THREE.LineSegments(g.edges, new THREE.LineBasicMaterial({ color: edgeColor })));
  return body;
}

function applyPose(object, pose) {
  object.position.fromArray(pose.p);
  object.quaternion.fromArray(pose.q);
}

// ---------------------------------------------------------------------------------------------
// Markers: points, rods and arrows sized relative to the scene, drawn on top of the shapes.
let unit = 0.02;

function overlay(material) {
  material.depthTest = false;
  material.transparent = true;
  return material;
}

function point(p, color, scale = 1, opacity = 1) {
  const m = new THREE.Mesh(new THREE.SphereGeometry(unit * scale, 16, 12),
    overlay(new THREE.MeshBasicMaterial({ color, opacity })));
  m.position.fromArray(p);
  m.renderOrder = 3;
  return m;
}

function rod(p, q, color, scale = 0.45) {
  const a = new THREE.Vector3().fromArray(p);
  const b = new THREE.Vector3().fromArray(q);
  const length = a.distanceTo(b);
  const m = new THREE.Mesh(new THREE.CylinderGeometry(unit * scale, unit * scale, Math.max(length, 1e-9), 12),
    overlay(new THREE.MeshBasicMaterial({ color })));
  m.position.copy(a).add(b).multiplyScalar(0.5);
  if (length > 0) m.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), b.clone().sub(a).normalize());
  m.renderOrder = 2;
  return m;
}

function arrow(origin, direction, length, color) {
  const group = new THREE.Group();
  const d = new THREE.Vector3().fromArray(direction).normalize();
  const head = Math.min(unit * 4, length * 0.4);
  const o = new THREE.Vector3().fromArray(origin);
  const neck = o.clone().addScaledVector(d, length - head);
  group.add(rod(origin, neck.toArray(), color, 0.4));
  const cone = new THREE.Mesh(new THREE.ConeGeometry(unit * 1.6, head, 16), overlay(new THREE.MeshBasicMaterial({ color })));
  cone.position.copy(neck).addScaledVector(d, head / 2);
  cone.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), d);
  cone.renderOrder = 2;
  group.add(cone);
  return group;
}

function polyline(points, color) {
  const geometry = new THREE.BufferGeometry().setFromPoints(points.map((p) => new THREE.Vector3().fromArray(p)));
  const line = new THREE.Line(geometry, new THREE.LineBasicMaterial({ color }));
  line.renderOrder = 1;
  return line;
}

function plane(normal, offset, around, size, color) {
  const n = new THREE.Vector3().fromArray(normal).normalize();
  const c = new THREE.Vector3().fromArray(around);
  c.addScaledVector(n, offset - n.dot(c));
  const m = new THREE.Mesh(new THREE.PlaneGeometry(size, size), new THREE.MeshBasicMaterial({
    color, transparent: true, opacity: 0.22, side: THREE.DoubleSide, depthWrite: false,
  }));
  m.position.copy(c);
  m.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), n);
  return m;
}

const is3 = (v) => Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number');
const fmt = (x) => (typeof x === 'number' ? Number(x.toPrecision(5)).toString() : String(x));

// ---------------------------------------------------------------------------------------------
// Page state: the query shown, its bodies, and the time slider.
const info = document.getElementById('info');
const legend = document.getElementById('legend');
const timebar = document.getElementById('timebar');
const slider = document.getElementById('time');
const timeLabel = document.getElementById('time-label');
const playButton = document.getElementById('play');
const state = { query: null, bodyA: null, bodyB: null, motion: null, timed: [], playing: false };

function legendRows(rows) {
  legend.replaceChildren(...rows.map(([color, text]) => {
    const row = document.createElement('div');
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = hex(color);
    row.append(swatch, document.createTextNode(text));
    return row;
  }));
}

function interpolatePose(motion, t) {
  const times = motion.times;
  const n = times.length;
  let i = 0;
  while (i < n - 2 && times[i + 1] < t) ++i;
  const span = times[i + 1] - times[i];
  const f = span > 0 ? Math.min(Math.max((t - times[i]) / span, 0), 1) : 0;
  const at = (list) => {
    const p = new THREE.Vector3().fromArray(list[i].p).lerp(new THREE.Vector3().fromArray(list[i + 1].p), f);
    const q = new THREE.Quaternion().fromArray(list[i].q).slerp(new THREE.Quaternion().fromArray(list[i + 1].q), f);
    return { p: p.toArray(), q: q.toArray() };
  };
  return { a: at(motion.a), b: at(motion.b) };
}

function setTime(t) {
  const motion = state.motion;
  if (!motion) return;
  const poses = interpolatePose(motion, t);
  applyPose(state.bodyA, poses.a);
  applyPose(state.bodyB, poses.b);
  // Contacts at or before the shown time are opaque, later ones faint.
  for (const { object, time } of state.timed) {
    const seen = time <= t + 1e-9;
    object.traverse((o) => { if (o.material) o.material.opacity = seen ? 1 : 0.22; });
  }
  const last = motion.times[motion.times.length - 1];
  slider.value = String(Math.round((t / last) * 1000));
  timeLabel.textContent = (state.query.kind === 'screw' ? 's = ' : 't = ') + t.toFixed(3);
}

function fitCamera() {
  const box = new THREE.Box3().setFromObject(content);
  if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
  const sphere = box.getBoundingSphere(new THREE.Sphere());
  const r = Math.max(sphere.radius, 1e-3);
  const direction = new THREE.Vector3(1.1, -1.6, 0.9).normalize();
  camera.position.copy(sphere.center).addScaledVector(direction, r / Math.sin((camera.fov * Math.PI) / 360) * 1.1);
  camera.near = r / 100;
  camera.far = r * 100;
  camera.updateProjectionMatrix();
  controls.target.copy(sphere.center);
  controls.update();
}

// Scene radius from the shapes at their poses (all motion samples), for marker sizes.
function sceneRadius(q) {
  const box = new THREE.Box3();
  const poses = q.motion ? [...q.motion.a.map((p) => [q.a, p]), ...q.motion.b.map((p) => [q.b, p])]
    : [[q.a, q.pose_a], [q.b, q.pose_b]];
  for (const [name, pose] of poses) {
    const g = shapeGeometry(name);
    if (!g || !pose) continue;
    const s = g.surface.boundingSphere;
    const c = s.center.clone().applyQuaternion(new THREE.Quaternion().fromArray(pose.q)).add(new THREE.Vector3().fromArray(pose.p));
    box.expandByPoint(c.clone().addScalar(s.radius));
    box.expandByPoint(c.clone().addScalar(-s.radius));
  }
  return box.isEmpty() ? 1 : box.getBoundingSphere(new THREE.Sphere()).radius;
}

function describe(q) {
  info.replaceChildren();
  const title = document.createElement('div');
  title.className = 'title';
  title.textContent = `${q.id}  (${q.kind}${q.result && q.result.method ? ', ' + q.result.method : ''})`;
  info.append(title);
  const line = document.createElement('div');
  if (q.ok) {
    line.textContent = q.summary;
  } else {
    line.className = 'error';
    line.textContent = 'error: ' + q.message;
  }
  info.append(line);
  if (q.a) {
    const shapes = document.createElement('div');
    const describeShape = (name) => {
      const s = data.shapes[name] || {};
      return `${name} (${s.type || '?'}${s.method ? ', ' + s.method : ''}${s.error ? ': ' + s.error : ''})`;
    };
    shapes.textContent = `a = ${describeShape(q.a)}, b = ${describeShape(q.b)}`;
    info.append(shapes);
  }
  const details = document.createElement('details');
  const summary = document.createElement('summary');
  summary.textContent = 'answer (proxima run output)';
  const pre = document.createElement('pre');
  pre.textContent = JSON.stringify(q.result, null, 1);
  details.append(summary, pre);
  info.append(details);
}

function show(index) {
  const q = data.queries[index];
  state.query = q;
  state.playing = false;
  playButton.textContent = 'play';
  content.clear();
  state.timed = [];
  document.querySelectorAll('#queries li').forEach((li, i) => li.classList.toggle('selected', i === index));
  describe(q);
  const rows = [];
  state.motion = q.motion || null;
  if (q.a) {
    unit = sceneRadius(q) * 0.012;
    state.bodyA = makeBody(q.a, COLOR.a);
    state.bodyB = makeBody(q.b, COLOR.b);
    applyPose(state.bodyA, q.pose_a);
    applyPose(state.bodyB, q.pose_b);
    content.add(state.bodyA, state.bodyB);
    rows.push([COLOR.a, `a: ${q.a}`], [COLOR.b, `b: ${q.b}`]);
  } else {
    rows.push([0x777777, 'n-dimensional point sets: nothing to draw in 3-D']);
  }
  const r = q.result || {};
  if (q.ok) {
    switch (q.kind) {
      case 'distance':
        if (is3(r.point_a) && is3(r.point_b)) {
          content.add(rod(r.point_a, r.point_b, COLOR.closest), point(r.point_a, COLOR.closest, 1.6), point(r.point_b, COLOR.closest, 1.6));
          rows.push([COLOR.closest, `closest points, distance ${fmt(r.distance)}`]);
          if (is3(r.normal) && !r.intersect) {
            content.add(arrow(r.point_a, r.normal, unit * 14, COLOR.normal));
            rows.push([COLOR.normal, 'normal (a to b)']);
          }
        }
        break;
      case 'penetration':
        if (r.intersect && is3(r.point_a) && is3(r.point_b)) {
          content.add(point(r.point_a, COLOR.penetration, 1.6), point(r.point_b, COLOR.penetration, 1.6));
          if (is3(r.normal) && r.depth > unit * 0.5) {
            content.add(arrow(r.point_a, r.normal, r.depth, COLOR.penetration));
          } else {
            content.add(rod(r.point_a, r.point_b, COLOR.penetration));
          }
          rows.push([COLOR.penetration, `penetration vector, depth ${fmt(r.depth)}`]);
          if (is3(r.normal)) {
            content.add(arrow(r.point_b, r.normal, unit * 14, COLOR.normal));
            rows.push([COLOR.normal, 'normal (a to b)']);
          }
        }
        break;
      case 'intersect':
        if (!r.intersect && is3(r.separating_axis)) {
          const mid = new THREE.Vector3().fromArray(q.pose_a.p).lerp(new THREE.Vector3().fromArray(q.pose_b.p), 0.5);
          content.add(arrow(mid.toArray(), r.separating_axis, unit * 14, COLOR.normal));
          rows.push([COLOR.normal, 'separating axis']);
        }
        break;
      case 'lp_intersect':
      case 'lp_contains':
        if (q.a && is3(r.common_point)) {
          content.add(point(r.common_point, COLOR.common, 2));
          rows.push([COLOR.common, 'common point (certificate)']);
        }
        if (q.a && is3(r.separating_normal) && typeof r.separating_offset === 'number') {
          const mid = new THREE.Vector3().fromArray(q.pose_a.p).lerp(new THREE.Vector3().fromArray(q.pose_b.p), 0.5);
          content.add(plane(r.separating_normal, r.separating_offset, mid.toArray(), unit * 120, COLOR.plane));
          rows.push([COLOR.plane, 'separating plane (certificate)']);
        }
        break;
      case 'toi_translate':
      case 'screw':
        if (Array.isArray(r.collisions)) {
          for (const c of r.collisions) {
            if (!is3(c.point)) continue;
            const proper = typeof c.properness === 'number' && c.properness >= 0;
            const object = point(c.point, proper ? COLOR.proper : COLOR.improper, 0.9);
            content.add(object);
            state.timed.push({ object, time: c.time });
          }
          rows.push([COLOR.proper, `proper collisions (${r.collisions.filter((c) => c.properness >= 0).length})`]);
          rows.push([COLOR.improper, `improper collisions (${r.collisions.filter((c) => !(c.properness >= 0)).length})`]);
        }
        if (r.contact && is3(r.point)) {
          const first = point(r.point, COLOR.contact, 2);
          content.add(first);
          state.timed.push({ object: first, time: r.toi });
          rows.push([COLOR.contact, `first contact, ${q.kind === 'screw' ? 's' : 't'} = ${fmt(r.toi)}`]);
          if (is3(r.normal)) {
            const n = arrow(r.point, r.normal, unit * 14, COLOR.normal);
            content.add(n);
            state.timed.push({ object: n, time: r.toi });
            rows.push([COLOR.normal, 'contact normal (a to b)']);
          }
        }
        break;
      case 'interval_translate':
        if (is3(r.point_a) && is3(r.point_b)) {
          const items = [rod(r.point_a, r.point_b, COLOR.closest), point(r.point_a, COLOR.closest, 1.6), point(r.point_b, COLOR.closest, 1.6)];
          for (const object of items) {
            content.add(object);
            state.timed.push({ object, time: r.min_time });
          }
          rows.push([COLOR.closest, `closest approach ${fmt(r.min_distance)} at t = ${fmt(r.min_time)}`]);
        }
        break;
      default:
        break;
    }
  }
  if (state.motion) {
    content.add(polyline(state.motion.a.map((p) => p.p), COLOR.pathA), polyline(state.motion.b.map((p) => p.p), COLOR.pathB));
    rows.push([COLOR.pathA, 'path of a (frame origin)'], [COLOR.pathB, 'path of b (frame origin)']);
    timebar.hidden = false;
    const start = typeof r.toi === 'number' ? r.toi : typeof r.min_time === 'number' ? r.min_time : 0;
    setTime(start);
  } else {
    timebar.hidden = true;
  }
  legendRows(rows);
  fitCamera();
}

// ---------------------------------------------------------------------------------------------
// The query list, the slider, and the frame loop.
document.getElementById('title').textContent = data.title;
const list = document.getElementById('queries');
data.queries.forEach((q, i) => {
  const li = document.createElement('li');
  const id = document.createElement('span');
  id.className = 'qid';
  id.textContent = q.id;
  const kind = document.createElement('span');
  kind.className = 'qkind';
  kind.textContent = q.kind;
  const text = document.createElement('div');
  text.className = q.ok ? 'qsum' : 'qerr';
  text.textContent = q.ok ? q.summary : 'error: ' + q.message;
  li.append(id, kind, text);
  li.addEventListener('click', () => {
    history.replaceState(null, '', '#' + encodeURIComponent(q.id));
    show(i);
  });
  list.append(li);
});

slider.addEventListener('input', () => {
  if (!state.motion) return;
  state.playing = false;
  playButton.textContent = 'play';
  setTime((Number(slider.value) / 1000) * state.motion.times[state.motion.times.length - 1]);
});
playButton.addEventListener('click', () => {
  state.playing = !state.playing;
  playButton.textContent = state.playing ? 'pause' : 'play';
});

let previous = performance.now();
let firstFrame = true;
function frame(now) {
  const dt = Math.min((now - previous) / 1000, 0.1);
  previous = now;
  if (state.playing && state.motion) {
    const last = state.motion.times[state.motion.times.length - 1];
    let t = (Number(slider.value) / 1000) * last + (dt / 4) * last;  // a whole motion in 4 s
    if (t > last) t = 0;
    setTime(t);
  }
  controls.update();
  renderer.render(scene, camera);
  if (firstFrame) {
    firstFrame = false;
    // The browser test waits for this.
    window.proximaReady = true;
    document.documentElement.dataset.ready = '1';
  }
  requestAnimationFrame(frame);
}

if (data.queries.length > 0) {
  const wanted = decodeURIComponent(location.hash.slice(1));
  let index = data.queries.findIndex((q) => q.id === wanted);
  if (index < 0) index = Math.max(0, data.queries.findIndex((q) => q.id === data.initial));
  show(index);
} else {
  info.textContent = 'This scene has no queries.';
}
requestAnimationFrame(frame);
