// The outputs: a table for people, one JSON object for machines, and the Markdown table of
// docs/performance.md (made from that JSON object, so the page never holds a hand-typed number).
import { cpus, release, totalmem } from "node:os";

export function machine() {
  return {
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model?.trim() ?? "unknown",
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    platform: process.platform,
    arch: process.arch,
    os: release(),
  };
}

/**
 * A row's target, as the issue states it: relative to another client (`vs: "sdk" | "raw"`,
 * Conduit's value at most `max`× or at least `min`× the other's) or absolute (Conduit's value at
 * most `max` / at least `min`, in the row's unit). A target with `all: [part, …]` (each part such
 * a bound) is met when every part is. Returns the JSON form: the text, the goal as a ratio
 * oriented like ratioVsSdk/ratioVsRaw (> 1 better) for relative targets, whether this run met it
 * (null when a value is missing), and `parts` (each bound's own goal and verdict).
 */
export function evaluateTarget(row) {
  const target = row.target;
  if (target == null) return null;
  const parts = (target.all ?? [target]).map((part) => evaluatePart(row, part));
  const met = parts.some((part) => part.met === false) ? false : parts.some((part) => part.met == null) ? null : true;
  const [first] = parts;
  return { text: target.text, vs: first.vs, goal: first.goal, met, ...(target.all === undefined ? {} : { parts }) };
}

function evaluatePart(row, part) {
  if (part.vs !== undefined) {
    const bound = part.max ?? part.min;
    const goal = row.better === "lower" ? 1 / bound : bound;
    const oriented = part.vs === "sdk" ? row.ratioVsSdk : row.ratioVsRaw;
    return { vs: part.vs, goal: fixed(goal, 3), met: oriented == null ? null : oriented >= goal - 1e-9 };
  }
  const value = row.conduit;
  const met = value == null ? null : part.max !== undefined ? value <= part.max : value >= part.min;
  return { vs: null, goal: part.max ?? part.min, met };
}

export function toReport(rows) {
  const scenarios = rows.map((row) => ({
    name: row.name,
    unit: row.unit,
    conduit: round(row.conduit, row.unit),
    sdk: round(row.sdk, row.unit),
    raw: round(row.raw, row.unit),
    "ai-sdk": round(row["ai-sdk"], row.unit),
    ratioVsSdk: fixed(row.ratioVsSdk, 3),
    ratioVsRaw: fixed(row.ratioVsRaw, 3),
    ratioVsAiSdk: fixed(row.ratioVsAiSdk, 3),
    ...(row.scale == null ? {} : { scale: row.scale }),
    ...(row.target == null ? {} : { target: evaluateTarget(row) }),
    ...(row.repetitions === undefined ? {} : { processes: row.repetitions }),
    ...(row.settings === undefined ? {} : { rounds: row.settings.rounds, calls: row.settings.calls }),
  }));
  return { scenarios, machine: machine(), date: new Date().toISOString() };
}

export function toJson(rows, context) {
  return JSON.stringify(toReport(rows, context));
}

export function toTable(rows, { options, protocols }) {
  const header = ["scenario", "unit", "conduit", "sdk", "raw", "ai-sdk", "conduit/sdk", "conduit/raw", "conduit/ai-sdk", "target"];
  const times = (value) => (value == null ? "–" : `${value.toFixed(2)}×`);
  const body = rows.map((row) => [
    row.name,
    row.unit,
    show(row, "conduit"),
    show(row, "sdk"),
    show(row, "raw"),
    show(row, "ai-sdk"),
    times(row.ratioVsSdk),
    times(row.ratioVsRaw),
    times(row.ratioVsAiSdk),
    targetText(evaluateTarget(row)),
  ]);
  const widths = header.map((_, i) => Math.max(...[header, ...body].map((line) => line[i].length)));
  const line = (cells) =>
    cells
      .map((cell, i) => (i < 2 || i === cells.length - 1 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
      .join("  ")
      .trimEnd();
  const m = machine();
  const inProcess = rows.filter((row) => row.repetitions === undefined);
  const fresh = rows.filter((row) => row.repetitions !== undefined);
  const notes = [];
  if (inProcess.length > 0) {
    const kinds = new Map();
    for (const row of inProcess) {
      const { rounds, calls, warmup } = row.settings ?? options;
      const key = `${rounds}×${calls} (after ${warmup})`;
      kinds.set(key, (kinds.get(key) ?? 0) + 1);
    }
    const text = [...kinds].map(([key, n]) => `${key}${kinds.size > 1 ? ` in ${n} row${n > 1 ? "s" : ""}` : ""}`).join(", ");
    notes.push(`In-process rows: medians of interleaved rounds per client, rounds×calls (after warm-up calls): ${text}.`);
  }
  if (fresh.length > 0) {
    const kinds = new Map();
    for (const row of fresh) kinds.set(row.repetitions, (kinds.get(row.repetitions) ?? 0) + 1);
    const text = [...kinds].map(([n, rows]) => `${n}${kinds.size > 1 ? ` in ${rows} row${rows > 1 ? "s" : ""}` : ""}`).join(", ");
    notes.push(`Fresh-process rows: medians of measurements per client, each in a new process, interleaved: ${text}.`);
  }
  return [
    line(header),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...body.map(line),
    "",
    ...notes,
    "Ratios > 1 mean Conduit is better (more calls/s; less time, CPU or memory). \"–\": not applicable to that client.",
    `Spread (max−min)/median per row: ${rows.map((row) => `${row.unit} ${spreadText(row.spreads)}`).join("; ")}`,
    ...(Object.keys(protocols).length > 0
      ? [`Negotiated protocol: ${Object.entries(protocols).map(([name, version]) => `${name} ${version ?? "?"}`).join(", ")}`]
      : []),
    `Machine: node ${m.node}, ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, ${m.platform}-${m.arch} ${m.os}`,
  ].join("\n");
}

/** The results table of docs/performance.md, from a report object (toReport, or its JSON read back). */
export function toMarkdown(report) {
  const cell = (value) => (value == null ? "–" : String(value));
  const ratio = (value) => (value == null ? "–" : `${value.toFixed(2)}×`);
  const lines = [
    "| scenario | unit | Conduit | official client | bare loop | AI SDK | vs official | vs bare loop | vs AI SDK | target | met |",
    "|---|---|--:|--:|--:|--:|--:|--:|--:|---|:-:|",
  ];
  for (const row of report.scenarios) {
    const target = row.target;
    const met = target == null || target.met == null ? "" : target.met ? "yes" : "**no**";
    lines.push(
      `| ${row.name} | ${row.unit} | ${cell(row.conduit)} | ${cell(row.sdk)} | ${cell(row.raw)} | ${cell(row["ai-sdk"])} | ${ratio(row.ratioVsSdk)} | ${ratio(row.ratioVsRaw)} | ${ratio(row.ratioVsAiSdk)} | ${target?.text ?? ""} | ${met} |`,
    );
  }
  return lines.join("\n");
}

export function machineText(m) {
  return `Node ${m.node} on ${m.platform}-${m.arch} (${m.os}), ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB RAM`;
}

function targetText(target) {
  if (target == null) return "";
  const verdict = target.met == null ? "?" : target.met ? "met" : "MISSED";
  return `${target.text}: ${verdict}`;
}

function spreadText(spreads) {
  return Object.entries(spreads)
    .filter(([, value]) => value != null)
    .map(([name, value]) => `${name} ${(value * 100).toFixed(0)}%`)
    .join(" ");
}

function round(value, unit) {
  if (value == null) return null;
  if (unit === "calls/s") return Math.round(value);
  return fixed(value, Math.abs(value) >= 100 ? 1 : 2);
}

function fixed(value, digits) {
  return value == null ? null : Number(value.toFixed(digits));
}

function show(row, client) {
  const value = row[client];
  if (value == null) return row.missing?.[client] === "n/a" ? "–" : "failed";
  return row.unit === "calls/s" ? String(Math.round(value)) : value.toFixed(Math.abs(value) >= 100 ? 1 : 2);
}
