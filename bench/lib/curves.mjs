// The cost curves of docs/performance.svg: the rows that carry `scale: { curve, x, xUnit }` (one
// point each), drawn as one small log–log panel per curve with a line per client, so that how a
// cost grows with the work (servers, tools, tasks, calls in flight, messages) can be read at a
// glance: a line parallel to its neighbours grows as they do; a steeper one grows faster.
const PANEL_W = 322;
const PANEL_H = 190;
const GAP = 14;
const PER_LINE = 3;
const PLOT = { left: 46, right: 10, top: 34, bottom: 34 };
export const CLIENT_COLORS = { conduit: "#ea580c", sdk: "#2563eb", raw: "#9ca3af", "ai-sdk": "#16a34a" };
const CLIENT_NAMES = { conduit: "Conduit", sdk: "official", raw: "bare loop", "ai-sdk": "AI SDK" };

/** The curves of `rows`, in the order their first point appears. */
export function curvesOf(rows) {
  const curves = new Map();
  for (const row of rows) {
    if (row.scale == null) continue;
    let curve = curves.get(row.scale.curve);
    if (curve === undefined) curves.set(row.scale.curve, (curve = { id: row.scale.curve, unit: row.unit, xUnit: row.scale.xUnit, points: [] }));
    curve.points.push(row);
  }
  for (const curve of curves.values()) curve.points.sort((a, b) => a.scale.x - b.scale.x);
  return [...curves.values()];
}

/** The height the panels of `curves` take. */
export function curvesHeight(curves) {
  return curves.length === 0 ? 0 : 40 + Math.ceil(curves.length / PER_LINE) * (PANEL_H + GAP);
}

/** SVG elements of the panels, from `top`; `text(x, y, content, style)` draws a label. */
export function renderCurves(curves, top, left, text) {
  if (curves.length === 0) return [];
  const out = [text(left, top + 18, "How cost grows with the work (log–log; one panel per curve, a line per client)", { size: 14, weight: 600 })];
  let lx = left;
  for (const [client, color] of Object.entries(CLIENT_COLORS)) {
    out.push(`<rect x="${lx}" y="${top + 26}" width="14" height="3" fill="${color}"/>`, text(lx + 18, top + 31, CLIENT_NAMES[client], { size: 11 }));
    lx += 30 + CLIENT_NAMES[client].length * 6.5;
  }
  curves.forEach((curve, i) => {
    const px = left + (i % PER_LINE) * (PANEL_W + GAP);
    const py = top + 40 + Math.floor(i / PER_LINE) * (PANEL_H + GAP);
    out.push(...panel(curve, px, py, text));
  });
  return out;
}

function panel(curve, px, py, text) {
  const out = [`<rect x="${px}" y="${py}" width="${PANEL_W}" height="${PANEL_H}" fill="none" stroke="#e5e7eb"/>`];
  out.push(text(px + 8, py + 16, clip(title(curve), 52), { size: 11, weight: 600 }));
  out.push(text(px + 8, py + 28, `${curve.unit} against ${curve.xUnit ?? "size"}`, { size: 10, fill: "#6b7280" }));
  const xs = curve.points.map((row) => row.scale.x);
  const values = curve.points.flatMap((row) => Object.keys(CLIENT_COLORS).map((client) => row[client])).filter((v) => typeof v === "number" && v > 0);
  if (values.length === 0) {
    out.push(text(px + 8, py + 60, "no values in this run", { size: 11, fill: "#6b7280" }));
    return out;
  }
  const [x0, x1] = spanOf(xs);
  const [y0, y1] = spanOf(values);
  const plotL = px + PLOT.left;
  const plotR = px + PANEL_W - PLOT.right;
  const plotT = py + PLOT.top;
  const plotB = py + PANEL_H - PLOT.bottom;
  const sx = (v) => plotL + ((Math.log(v) - Math.log(x0)) / (Math.log(x1) - Math.log(x0))) * (plotR - plotL);
  const sy = (v) => plotB - ((Math.log(v) - Math.log(y0)) / (Math.log(y1) - Math.log(y0))) * (plotB - plotT);
  out.push(`<line x1="${plotL}" y1="${plotB}" x2="${plotR}" y2="${plotB}" stroke="#6b7280"/>`, `<line x1="${plotL}" y1="${plotT}" x2="${plotL}" y2="${plotB}" stroke="#6b7280"/>`);
  for (const x of xs) out.push(text(sx(x), plotB + 13, short(x), { size: 10, anchor: "middle", fill: "#6b7280" }));
  for (const v of [y0, Math.sqrt(y0 * y1), y1]) out.push(text(plotL - 4, sy(v) + 3, short(v), { size: 10, anchor: "end", fill: "#6b7280" }));
  for (const [client, color] of Object.entries(CLIENT_COLORS)) {
    const points = curve.points.filter((row) => typeof row[client] === "number" && row[client] > 0).map((row) => [sx(row.scale.x), sy(row[client])]);
    if (points.length === 0) continue;
    if (points.length > 1) out.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ")}"/>`);
    for (const [x, y] of points) out.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="2.5" fill="${color}"/>`);
  }
  return out;
}

/** A curve's title: the name of its first row with the size written as N. */
function title(curve) {
  const first = curve.points[0];
  const x = first.scale.x;
  const forms = [x.toLocaleString("en-US").replace(/,/g, " "), x.toLocaleString("en-US"), String(x)];
  let name = first.name;
  for (const form of forms) if (name.includes(form)) return name.replace(form, "N");
  return `${name} (${curve.id})`;
}

function spanOf(values) {
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi / lo < 1.5) {
    lo /= 1.25;
    hi *= 1.25;
  }
  return [lo / 1.1, hi * 1.1];
}

function short(v) {
  if (v >= 1e6) return `${+(v / 1e6).toPrecision(2)}M`;
  if (v >= 1e3) return `${+(v / 1e3).toPrecision(2)}k`;
  return String(+v.toPrecision(2));
}

function clip(value, max) {
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`;
}
