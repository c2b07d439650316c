// The shape of ink: the rules InkGeometry draws saved strokes with, so that a stroke drawn live is
// the shape the server's SVG (and the PDF export) draws once it is saved, and nothing changes at pen
// up. Ports of Sources/InkGeometry/StrokeStyle.swift (the tools' styles, the radius from pressure
// through the tool's pressure curve) and Sources/InkGeometry/StrokeGeometry.swift:
// `pressureSeries` (pressure made up from the pen's speed when every point of a stroke has the same
// pressure, as a mouse's do), `spines` (close samples merged, eased tapers over the first and last
// widths, split at sharp corners, Gaussian smoothing over arc length, a centripetal Catmull-Rom
// spline subdivided to the tolerance, the radius' slope limited) and the outline as the union of the
// circles along the centreline, which the SVG's stroked runs and filled outlines draw within the
// tolerance. The looks (opacity, blend, under the ink) are Sources/InkRender/InkStyle.swift's.
// Erasers erase with their whole nominal width whatever the pressure (Sources/InkGeometry/Erasing.swift).
// Every number comes from the engine: /assets/rules.js, which the server writes from the Swift values
// (InkwellKit's InkRules: the tools' StrokeStyle and look, StrokeGeometry's constants).
import { RULES } from "/assets/rules.js";

/** Each tool's shape and look (InkRules.ToolRules): minWidth and maxWidth are fractions of the nominal
 *  width, tapers in nominal widths, `pressureSimulation` automatic, always or never; opacity, the canvas
 *  blend, painted under all the ink, the pencil's darkness from pressure. */
const TOOLS = RULES.ink.tools;
/** StrokeGeometry's constants, by their Swift names. */
const G = RULES.ink.geometry;

const styleOf = (tool) => TOOLS[tool] ?? TOOLS.pen;

/** How `tool`'s ink is painted: `{ opacity, blend, under, pressureOpacity? }`. */
export const lookOf = (tool) => styleOf(tool);

/** The share of the width range pressure `p` (0…1) gives (the style's pressure curve). */
const curve = (style, p) => Math.pow(Math.min(1, Math.max(0, p)), style.pressureExponent);

/** The width of a stroke of `tool` (a tool name) and nominal `width` at `pressure` (0…1), in page pixels. */
export function strokeWidth(tool, width, pressure) {
  if (tool === "eraser") return width;
  const style = styleOf(tool);
  return width * (style.minWidth + (style.maxWidth - style.minWidth) * curve(style, pressure));
}

/** The pressure InkGeometry draws each point of a stroke with: the recorded one (`[x, y, pressure, …]`),
 *  or, when all are equal, one made up from the speed, `times` being each point's milliseconds since
 *  the pen went down (`StrokeGeometry.pressureSeries`). */
export function drawnPressures(tool, width, points, times) {
  return morePressures(tool, width, points, times, null).values;
}

/** `drawnPressures` of a stroke that grew since `known` (this function's answer for its first points,
 *  or null): `{ values, … }`, working out only the new points unless they change how the stroke's
 *  pressure is drawn (recorded or made up, timed or not), which happens early in a stroke if at all. */
export function morePressures(tool, width, points, times, known) {
  const n = points.length;
  const recorded = (i) => Number.isFinite(points[i][2]) ? Math.min(1, Math.max(0, points[i][2])) : 0.5;
  const first = n ? recorded(0) : undefined;
  let constant = known ? known.constant : true;
  for (let i = known ? known.n : 0; i < n && constant; i++) constant = Math.abs(recorded(i) - first) < 1e-4;
  const simulation = styleOf(tool).pressureSimulation;
  const simulate = simulation === "always" || (simulation === "automatic" && constant);
  // Speed in nominal widths per millisecond; samples without usable times are taken as G.untimedInterval ms apart.
  const timed = n > 0 && times[n - 1] > times[0];
  const mode = !simulate ? (constant && first === 0 ? "still" : "recorded") : n < 2 ? "lone" : timed ? "timed" : "untimed";
  const nominal = Number.isFinite(width) && width > 0 ? width : 1;
  const speed = (i) => {
    const d = Math.hypot(points[i][0] - points[i - 1][0], points[i][1] - points[i - 1][1]);
    return d / (timed ? Math.max(G.shortestInterval, times[i] - times[i - 1]) : G.untimedInterval) / nominal;
  };
  // Full pressure when still, the least at a quarter of the nominal width per millisecond and above.
  const target = (v) => {
    const u = Math.min(1, v / G.leastPressureSpeed);
    return 1 - G.speedPressureDrop * u * u * (3 - 2 * u);
  };
  const again = !known || known.mode !== mode || mode === "lone";
  const values = again ? [] : known.values;
  let p = again ? (mode === "timed" || mode === "untimed" ? target(speed(1)) : 0) : known.p;
  if (mode === "lone") values.push(G.lonePointPressure);
  for (let i = again ? 0 : known.n; i < n && mode !== "lone"; i++) {
    if (mode === "still") values.push(0.5);
    else if (mode === "recorded") values.push(recorded(i));
    else values.push(p += (target(speed(Math.max(1, i))) - p) * G.pressureEasing); // the first point at the second's speed
  }
  return { values, n, constant, mode, p };
}

/** The smoothed, subdivided centreline pieces of a stroke (`StrokeGeometry.spines`): each
 *  `{ p: [[x, y]…], r: [radius…], pr: [pressure…], at: [index…] }`, in page pixels, `at` being where
 *  each spine point is between the stroke's points (their indices). `part` makes them of the stroke's
 *  last points only: `{ pressures }` theirs in the whole stroke, `before` its length before them. */
export function spines(tool, width, points, times, tolerance, part = {}) {
  if (!points.length) return [];
  const style = styleOf(tool);
  const w = Number.isFinite(width) && width > 0 ? width : 1;
  const pressures = part.pressures ?? drawnPressures(tool, w, points, times);
  const before = part.before ?? 0;
  // Samples closer than a quarter of the tolerance to the previous kept one are merged (NaNs dropped).
  const q = [], pr = [], at = [];
  const merge = G.mergeShare * tolerance;
  points.forEach((point, i) => {
    const p = [point[0], point[1]];
    if (!Number.isFinite(p[0]) || !Number.isFinite(p[1])) return;
    const last = q[q.length - 1];
    if (last && (p[0] - last[0]) ** 2 + (p[1] - last[1]) ** 2 < merge * merge) {
      pr[pr.length - 1] = Math.max(pr[pr.length - 1], pressures[i]);
      if (i === points.length - 1 && q.length > 1) [q[q.length - 1], at[at.length - 1]] = [p, i]; // keep the true end
      return;
    }
    q.push(p);
    pr.push(pressures[i]);
    at.push(i);
  });
  if (!q.length) return [];
  // Arc length, radius from pressure, eased tapers.
  const s = q.map(() => 0);
  for (let i = 1; i < q.length; i++) s[i] = s[i - 1] + Math.hypot(q[i][0] - q[i - 1][0], q[i][1] - q[i - 1][1]);
  const total = before + s[q.length - 1];
  const taperStart = Math.min(style.taperStart * w, G.taperShareLimit * total);
  const taperEnd = Math.min(style.taperEnd * w, G.taperShareLimit * total);
  const tip = Math.min(1, Math.max(0, style.taperTip));
  const r = q.map((_, i) => {
    let radius = 0.5 * w * (style.minWidth + (style.maxWidth - style.minWidth) * curve(style, pr[i]));
    if (taperStart > 0 && before + s[i] < taperStart) {
      const u = (before + s[i]) / taperStart;
      radius *= tip + (1 - tip) * u * (2 - u);
    }
    if (taperEnd > 0 && total - (before + s[i]) < taperEnd) {
      const u = (total - (before + s[i])) / taperEnd;
      radius *= tip + (1 - tip) * u * (2 - u);
    }
    return Math.max(radius, 1e-3);
  });
  if (q.length === 1) return [{ p: q, r, pr, at }];
  // Split at sharp corners, then smooth and subdivide each piece on its own.
  const sigma = Math.max(0, Math.min(1, style.smoothing)) * Math.min(G.smoothingWidths * w, G.smoothingReachLimit);
  const pieces = [];
  let start = 0;
  for (const corner of [...corners(q, s, w, style.cornerAngle), q.length - 1]) {
    if (corner <= start) continue;
    const pq = q.slice(start, corner + 1), prr = r.slice(start, corner + 1), pp = pr.slice(start, corner + 1);
    if (sigma > 0 && pq.length > 2) smooth(pq, prr, pp, s.slice(start, corner + 1), sigma);
    const piece = subdivide(pq, prr, pp, at.slice(start, corner + 1), tolerance);
    limitSlope(piece);
    pieces.push(piece);
    start = corner;
  }
  return pieces;
}

/** Indices where the path turns by more than `maxTurn` degrees between directions over a window. */
function corners(q, s, width, maxTurn) {
  if (q.length <= 2 || maxTurn >= 180) return [];
  const window = Math.max(G.cornerWindowWidths * width, 1e-3);
  const limit = Math.cos(maxTurn * Math.PI / 180);
  const result = [];
  let groupEnd = -Infinity, bestCos = 2, j = 0, k = 1;
  for (let i = 1; i < q.length - 1; i++) {
    while (j + 1 < i && s[i] - s[j + 1] >= window) j++;
    if (k <= i) k = i + 1;
    while (k < q.length - 1 && s[k] - s[i] < window) k++;
    const din = [q[i][0] - q[j][0], q[i][1] - q[j][1]], dout = [q[k][0] - q[i][0], q[k][1] - q[i][1]];
    const denominator = Math.sqrt((din[0] ** 2 + din[1] ** 2) * (dout[0] ** 2 + dout[1] ** 2));
    const c = denominator > 0 ? (din[0] * dout[0] + din[1] * dout[1]) / denominator : 1;
    if (!(c < limit)) continue;
    if (s[i] - groupEnd < window && result.length) {
      if (c < bestCos) { result[result.length - 1] = i; bestCos = c; }
    } else {
      result.push(i);
      bestCos = c;
    }
    groupEnd = s[i];
  }
  return result;
}

/** Gaussian smoothing over arc length, the window shrinking towards the ends so they stay put. */
function smooth(p, r, pr, s, sigma) {
  const n = p.length;
  const p0 = p.map((v) => v.slice()), r0 = r.slice(), pr0 = pr.slice();
  const total = s[n - 1] - s[0];
  for (let i = 1; i < n - 1; i++) {
    const here = s[i] - s[0];
    const sig = Math.min(sigma, here / 3, (total - here) / 3);
    if (!(sig > 1e-6)) continue;
    const reach = 3 * sig, inv = -1 / (2 * sig * sig);
    let sw = 0, sx = 0, sy = 0, sr = 0, sp = 0;
    let j = i;
    while (j > 0 && s[i] - s[j - 1] <= reach) j--;
    for (; j < n && s[j] - s[i] <= reach; j++) {
      const d = s[j] - s[i];
      const ds = (s[Math.min(n - 1, j + 1)] - s[Math.max(0, j - 1)]) * 0.5;
      const weight = Math.exp(d * d * inv) * Math.max(ds, 1e-9);
      sw += weight;
      sx += weight * p0[j][0];
      sy += weight * p0[j][1];
      sr += weight * r0[j];
      sp += weight * pr0[j];
    }
    if (sw > 0) {
      p[i] = [sx / sw, sy / sw];
      r[i] = sr / sw;
      pr[i] = sp / sw;
    }
  }
}

/** A centripetal Catmull-Rom spline through the points, subdivided where it curves. */
function subdivide(p, r, pr, at, tolerance) {
  const n = p.length;
  if (n <= 2) return { p, r, pr, at };
  const out = [p[0]], outR = [r[0]], outP = [pr[0]], outAt = [at[0]];
  const sub = (a, b) => [a[0] - b[0], a[1] - b[1]];
  const length = (a) => Math.hypot(a[0], a[1]);
  const turn = (a, b) => Math.atan2(Math.abs(a[0] * b[1] - a[1] * b[0]), a[0] * b[0] + a[1] * b[1]);
  const mix = (a, wa, b, wb) => [a[0] * wa + b[0] * wb, a[1] * wa + b[1] * wb];
  const budget = G.stepBudget * tolerance;
  let turnIn = 0;
  for (let i = 0; i < n - 1; i++) {
    const p1 = p[i], p2 = p[i + 1];
    const p0 = i > 0 ? p[i - 1] : [2 * p1[0] - p2[0], 2 * p1[1] - p2[1]];
    const p3 = i + 2 < n ? p[i + 2] : [2 * p2[0] - p1[0], 2 * p2[1] - p1[1]];
    const d1 = sub(p1, p0), d2 = sub(p2, p1), d3 = sub(p3, p2);
    if (i === 0) turnIn = turn(d1, d2);
    const turnOut = turn(d2, d3);
    const theta = 0.5 * (turnIn + turnOut);
    turnIn = turnOut;
    const l = length(d2);
    const rm = Math.max(r[i], r[i + 1]);
    const steps = Math.min(G.maximumSteps, Math.max(1, Math.ceil(Math.sqrt((l + rm * theta) * theta / budget))));
    if (steps > 1) {
      const t0 = 0, t1 = t0 + Math.max(Math.sqrt(length(d1)), 1e-6);
      const t2 = t1 + Math.max(Math.sqrt(l), 1e-6), t3 = t2 + Math.max(Math.sqrt(length(d3)), 1e-6);
      for (let k = 1; k < steps; k++) {
        const u = k / steps, t = t1 + (t2 - t1) * u;
        const a1 = mix(p0, (t1 - t) / (t1 - t0), p1, (t - t0) / (t1 - t0));
        const a2 = mix(p1, (t2 - t) / (t2 - t1), p2, (t - t1) / (t2 - t1));
        const a3 = mix(p2, (t3 - t) / (t3 - t2), p3, (t - t2) / (t3 - t2));
        const b1 = mix(a1, (t2 - t) / (t2 - t0), a2, (t - t0) / (t2 - t0));
        const b2 = mix(a2, (t3 - t) / (t3 - t1), a3, (t - t1) / (t3 - t1));
        out.push(mix(b1, (t2 - t) / (t2 - t1), b2, (t - t1) / (t2 - t1)));
        outR.push(r[i] + (r[i + 1] - r[i]) * u);
        outP.push(pr[i] + (pr[i + 1] - pr[i]) * u);
        outAt.push(at[i] + (at[i + 1] - at[i]) * u);
      }
    }
    out.push(p2);
    outR.push(r[i + 1]);
    outP.push(pr[i + 1]);
    outAt.push(at[i + 1]);
  }
  return { p: out, r: outR, pr: outP, at: outAt };
}

/** The radius changes at most `StrokeGeometry.maximumSlope` a unit along the centreline. */
function limitSlope(spine) {
  const { p, r } = spine;
  const lengths = p.map((v, i) => (i ? Math.hypot(v[0] - p[i - 1][0], v[1] - p[i - 1][1]) : 0));
  for (let i = 1; i < p.length; i++) r[i] = Math.max(r[i], r[i - 1] - G.maximumSlope * lengths[i]);
  for (let i = p.length - 2; i >= 0; i--) r[i] = Math.max(r[i], r[i + 1] - G.maximumSlope * lengths[i + 1]);
}

/** Adds to `path` the area a spine covers, `scale` device pixels a page pixel: the circles along it
 *  and the quadrilaterals tangent to each two in a row, all wound alike so the nonzero fill is their
 *  union. */
function addSpine(path, spine, scale) {
  const { p, r } = spine;
  for (let i = 0; i < p.length; i++) {
    path.moveTo((p[i][0] + r[i]) * scale, p[i][1] * scale);
    path.arc(p[i][0] * scale, p[i][1] * scale, r[i] * scale, 0, 2 * Math.PI);
    if (i === 0) continue;
    const [x1, y1] = p[i - 1], [x2, y2] = p[i], r1 = r[i - 1], r2 = r[i];
    const d = Math.hypot(x2 - x1, y2 - y1);
    if (d <= Math.abs(r1 - r2)) continue; // one circle holds the other
    const theta = Math.atan2(y2 - y1, x2 - x1), phi = Math.acos((r1 - r2) / d);
    const at = (x, y, radius, angle) => [(x + radius * Math.cos(angle)) * scale, (y + radius * Math.sin(angle)) * scale];
    // Clockwise on the screen (y down), as the arcs are.
    const corners = [at(x1, y1, r1, theta - phi), at(x2, y2, r2, theta - phi), at(x2, y2, r2, theta + phi), at(x1, y1, r1, theta + phi)];
    path.moveTo(...corners[0]);
    for (const corner of corners.slice(1)) path.lineTo(...corner);
    path.closePath();
  }
}

/** The outline of a stroke in device pixels (`scale` a page pixel), as a Path2D to fill with the
 *  nonzero rule; `times` are the points' milliseconds since the pen went down, `tolerance` the page's
 *  (the server sends it with the page). Pencil strokes come as one path a darkness step:
 *  `[{ path, shade }]` with shade 0.3…0.9, every other tool as one `{ path, shade: 1 }`. */
export function outline(tool, width, points, times, tolerance, scale) {
  return fills(tool, spines(tool, width, points, times, tolerance), scale).parts;
}

/** The outline of spines as `{ parts: outline's answer, box: [left, top, right, bottom] in page pixels }`:
 *  of the whole, or only from the spine point at or before the stroke's point `from` to the one at or
 *  after `to`, so that parts drawn apart meet (in one circle, not overlapping further: antialiased
 *  edges drawn over each other darken). */
function fills(tool, pieces, scale, from = -Infinity, to = Infinity) {
  const box = [Infinity, Infinity, -Infinity, -Infinity];
  const kept = [];
  for (const spine of pieces) {
    if (spine.at[0] > to || spine.at[spine.at.length - 1] < from) continue;
    const first = Math.max(0, spine.at.findLastIndex((v) => v <= from));
    const after = spine.at.findIndex((v) => v >= to);
    const last = after < 0 ? spine.at.length - 1 : after;
    const part = { p: spine.p.slice(first, last + 1), r: spine.r.slice(first, last + 1), pr: spine.pr.slice(first, last + 1) };
    part.p.forEach(([x, y], i) => {
      box[0] = Math.min(box[0], x - part.r[i]); box[1] = Math.min(box[1], y - part.r[i]);
      box[2] = Math.max(box[2], x + part.r[i]); box[3] = Math.max(box[3], y + part.r[i]);
    });
    kept.push(part);
  }
  const look = lookOf(tool);
  if (!look.pressureOpacity) {
    const path = new Path2D();
    for (const spine of kept) addSpine(path, spine, scale);
    return { parts: [{ path, shade: 1 }], box };
  }
  // The pencil: each step of its centreline gets the darkness of its mean pressure, in 8 steps.
  const [low, high] = look.pressureOpacity;
  const levels = new Map();
  for (const spine of kept) {
    for (let i = 0; i < spine.p.length; i++) {
      const j = Math.min(spine.p.length - 1, i + 1);
      const pressure = Math.min(1, Math.max(0, 0.5 * (spine.pr[i] + spine.pr[j])));
      const level = Math.round(pressure * 7);
      if (!levels.has(level)) levels.set(level, new Path2D());
      addSpine(levels.get(level), { p: spine.p.slice(i, j + 1), r: spine.r.slice(i, j + 1) }, scale);
    }
  }
  const parts = [...levels.entries()].sort((a, b) => a[0] - b[0]).map(([level, path]) => ({ path, shade: low + (high - low) * level / 7 }));
  return { parts, box };
}

/** How far along a stroke (page pixels) its points shape each other: the reach of the smoothing, the
 *  corner window either side, the radius' slope limit from the widest radius, and the tapers. */
function reachOf(tool, width) {
  const style = styleOf(tool);
  const w = Number.isFinite(width) && width > 0 ? width : 1;
  const sigma = Math.max(0, Math.min(1, style.smoothing)) * Math.min(G.smoothingWidths * w, G.smoothingReachLimit);
  const slope = 0.5 * w * style.maxWidth / G.maximumSlope;
  return 3 * sigma + 2 * G.cornerWindowWidths * w + slope + Math.max(style.taperStart, style.taperEnd) * w;
}

/**
 * A stroke being written (`points` and `times` are its own arrays, which grow), outlined in time
 * independent of its length: each `advance` gives the part that became final, the shape `outline`
 * gives it in the whole stroke (to draw once), and the tip, the last reach of it, which later points
 * may still change (to draw again each time): `{ fixed: [{ path, shade }], tip: […], tipBox }`.
 */
export class GrowingStroke {
  constructor(tool, width, points, times, tolerance) {
    Object.assign(this, { tool, width, points, times, tolerance, reach: reachOf(tool, width) });
    this.arc = []; // length along the stroke at each point
    this.pressures = null;
    this.start = 0; // the first point that shapes what is not final yet
    this.done = 0; // the points before this one are drawn in their final shape
  }

  advance(scale) {
    const { tool, width, points, times, arc } = this;
    for (let i = arc.length; i < points.length; i++) {
      arc.push(i ? arc[i - 1] + (Math.hypot(points[i][0] - points[i - 1][0], points[i][1] - points[i - 1][1]) || 0) : 0);
    }
    this.pressures = morePressures(tool, width, points, times, this.pressures);
    while (arc[this.start + 1] <= arc[this.done] - this.reach) this.start++;
    let done = this.done;
    while (done + 1 < points.length && arc[done + 1] <= arc[points.length - 1] - this.reach) done++;
    const a = this.start;
    const pieces = spines(tool, width, points.slice(a), times.slice(a), this.tolerance,
      { pressures: this.pressures.values.slice(a), before: arc[a] });
    const fixed = done > this.done ? fills(tool, pieces, scale, this.done - a, done - a).parts : [];
    const tip = fills(tool, pieces, scale, done - a);
    this.done = done;
    return { fixed, tip: tip.parts, tipBox: tip.box };
  }
}

/** `#rrggbb` at `amount` over white, opaque (Scene.mixWithWhite: the pencil's darkness steps). */
export function mixWithWhite(color, amount) {
  const channel = (i) => Math.round(255 - (255 - parseInt(color.slice(i, i + 2), 16)) * amount);
  return `rgb(${channel(1)},${channel(3)},${channel(5)})`;
}
