// The chart of docs/performance.md: an SVG drawn from the report object that `--json` prints
// (never from numbers typed by hand). One block per row: Conduit's ratio against the official
// client and against the bare loop, as bars from parity (1×) on a log scale, right = Conduit
// better; the row's target, when it has one, is a mark on the bar it concerns. Below them, the
// cost curves (curves.mjs).
import { curvesHeight, curvesOf, renderCurves } from "./curves.mjs";
import { machineText } from "./report.mjs";

const WIDTH = 1040;
const LEFT = 24;
const TEXT_COLUMN = 290; // the target text, right of the plot
const LABEL_ROOM = 130; // the value label after the longest bar
const TOP = 92;
const BLOCK = 58;
const BAR = 13;
const COLORS = { sdk: "#2563eb", raw: "#9ca3af", target: "#ea580c", worse: "#dc2626", text: "#111827", muted: "#6b7280", grid: "#e5e7eb" };
const TICKS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

export function renderChart(report) {
  // Rows that are points of a cost curve are drawn as curves below the bars (curves.mjs).
  const rows = report.scenarios.filter((row) => row.scale == null);
  const curves = curvesOf(report.scenarios);
  const ratios = rows.flatMap((row) => [row.ratioVsSdk, row.ratioVsRaw, ...marks(row).map((mark) => mark.goal)]).filter((v) => v != null && v > 0);
  const lo = Math.min(0.5, ...ratios.map((v) => v / 1.3));
  const hi = Math.max(2, ...ratios.map((v) => v * 1.3));
  const plotLeft = LEFT;
  const plotRight = WIDTH - TEXT_COLUMN - LABEL_ROOM;
  const x = (v) => plotLeft + ((Math.log(v) - Math.log(lo)) / (Math.log(hi) - Math.log(lo))) * (plotRight - plotLeft);
  const clampX = (v) => x(Math.min(hi, Math.max(lo, v)));
  const barsEnd = TOP + rows.length * BLOCK;
  const height = barsEnd + curvesHeight(curves) + 56;
  const out = [];

  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    text(LEFT, 26, "Conduit against the official MCP client and a bare JSON-RPC loop", { size: 16, weight: 600 }),
    text(LEFT, 46, "Ratio per row, log scale; right of 1× = Conduit better (faster, less CPU or memory). Mark = the issue's target.", { fill: COLORS.muted }),
  );
  // Legend.
  const legend = [
    ["vs the official client", COLORS.sdk],
    ["vs the bare loop", COLORS.raw],
  ];
  let lx = LEFT;
  for (const [label, color] of legend) {
    out.push(`<rect x="${lx}" y="58" width="14" height="10" fill="${color}"/>`, text(lx + 20, 67, label));
    lx += 24 + label.length * 6.6;
  }
  out.push(`<rect x="${lx + 6}" y="56" width="3" height="14" fill="${COLORS.target}"/>`, text(lx + 16, 67, "target"));

  // Ticks, and the grid drawn row by row beside the bars only (never across a row's title).
  const ticks = TICKS.filter((t) => t >= lo && t <= hi);
  for (const tick of ticks) out.push(text(x(tick), TOP - 6, `${tick}×`, { anchor: "middle", fill: COLORS.muted, size: 11 }));

  rows.forEach((row, i) => {
    const y = TOP + i * BLOCK;
    out.push(text(LEFT, y + 14, `${row.name} (${row.unit})`, { weight: 600 }));
    for (const tick of ticks) {
      const tx = x(tick).toFixed(1);
      out.push(`<line x1="${tx}" y1="${y + 18}" x2="${tx}" y2="${y + 20 + 2 * BAR + 6}" stroke="${tick === 1 ? COLORS.text : COLORS.grid}" stroke-width="${tick === 1 ? 1.2 : 1}"/>`);
    }
    const bars = [
      ["sdk", row.ratioVsSdk, "official"],
      ["raw", row.ratioVsRaw, "bare loop"],
    ];
    bars.forEach(([vs, value, label], j) => {
      const by = y + 20 + j * (BAR + 3);
      if (value == null) {
        out.push(text(x(1) + 6, by + BAR - 2, `– (no ${label} value)`, { fill: COLORS.muted, size: 11 }));
        return;
      }
      const x0 = x(1);
      const x1 = clampX(value);
      const left = Math.min(x0, x1);
      const width = Math.max(1.5, Math.abs(x1 - x0));
      out.push(`<rect x="${left.toFixed(1)}" y="${by}" width="${width.toFixed(1)}" height="${BAR}" fill="${COLORS[vs]}"${value < 1 ? ` stroke="${COLORS.worse}" stroke-width="1"` : ""}/>`);
      // The label starts after the bar, and after the target mark when the mark is further right.
      let labelX = (value >= 1 ? x1 : x0) + 5;
      for (const mark of marks(row).filter((m) => m.vs === vs)) {
        const tx = clampX(mark.goal);
        out.push(`<rect x="${(tx - 1.5).toFixed(1)}" y="${by - 3}" width="3" height="${BAR + 6}" fill="${COLORS.target}"/>`);
        if (tx + 5 > labelX - 4) labelX = Math.max(labelX, tx + 6);
      }
      out.push(text(labelX, by + BAR - 2, `${formatRatio(value)} vs ${label}`, { size: 11 }));
    });
    if (row.target != null) {
      const t = row.target;
      const verdict = t.met == null ? "?" : t.met ? "met" : "missed";
      const now = (t.parts ?? [t]).map((p) => (p.vs ? `${formatRatio(p.vs === "sdk" ? row.ratioVsSdk : row.ratioVsRaw)} (needs ≥ ${formatRatio(p.goal)})` : `${row.conduit} ${row.unit}`)).join(", ");
      out.push(text(WIDTH - TEXT_COLUMN + 10, y + 32, `target ${t.text}`, { fill: COLORS.target }));
      out.push(text(WIDTH - TEXT_COLUMN + 10, y + 47, `${now}: ${verdict}`, { weight: 600, fill: t.met === false ? COLORS.worse : COLORS.text }));
    }
  });

  out.push(...renderCurves(curves, barsEnd + 8, LEFT, text));

  const m = report.machine;
  const foot = [m ? machineText(m) : "", report.date ? `measured ${report.date.slice(0, 16).replace("T", " ")} UTC` : ""].filter(Boolean).join("; ");
  out.push(text(LEFT, height - 24, foot, { fill: COLORS.muted, size: 11 }));
  out.push(text(LEFT, height - 9, "Drawn by bench/lib/chart.mjs from docs/performance.json (npm run bench -- --write-docs).", { fill: COLORS.muted, size: 11 }));
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}

/** The relative bounds of a row's target, each a mark on the bar of the client it is against. */
function marks(row) {
  const target = row.target;
  if (target == null) return [];
  return (target.parts ?? [target]).filter((part) => part.vs);
}

function formatRatio(value) {
  if (value == null) return "–";
  return `${value >= 10 ? value.toFixed(1) : value.toFixed(2)}×`;
}

function text(x, y, content, { size, weight, fill, anchor } = {}) {
  const attrs = [`x="${round(x)}"`, `y="${round(y)}"`];
  if (size) attrs.push(`font-size="${size}"`);
  if (weight) attrs.push(`font-weight="${weight}"`);
  attrs.push(`fill="${fill ?? COLORS.text}"`);
  if (anchor) attrs.push(`text-anchor="${anchor}"`);
  return `<text ${attrs.join(" ")}>${escapeXml(content)}</text>`;
}

function round(v) {
  return Number(v.toFixed(1));
}

function escapeXml(value) {
  return String(value).replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]);
}
