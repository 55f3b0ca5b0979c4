// The two outputs: a table for people, one JSON object for machines.
import { cpus } from "node:os";

export function machine() {
  return { node: process.version, cpus: cpus().length, platform: process.platform };
}

export function toJson(rows) {
  const scenarios = rows.map((row) => ({
    name: row.name,
    unit: row.unit,
    conduit: round(row.conduit, row.unit),
    sdk: round(row.sdk, row.unit),
    raw: round(row.raw, row.unit),
    ratioVsSdk: fixed(row.ratioVsSdk, 3),
    ratioVsRaw: fixed(row.ratioVsRaw, 3),
  }));
  return JSON.stringify({ scenarios, machine: machine() });
}

export function toTable(rows, { options, protocols }) {
  const header = ["scenario", "unit", "conduit", "sdk", "raw", "conduit/sdk", "conduit/raw"];
  const body = rows.map((row) => [
    row.name,
    row.unit,
    show(row.conduit, row.unit),
    show(row.sdk, row.unit),
    show(row.raw, row.unit),
    row.ratioVsSdk == null ? "—" : `${row.ratioVsSdk.toFixed(2)}×`,
    row.ratioVsRaw == null ? "—" : `${row.ratioVsRaw.toFixed(2)}×`,
  ]);
  const widths = header.map((_, i) => Math.max(...[header, ...body].map((line) => line[i].length)));
  const line = (cells) => cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ");
  const m = machine();
  return [
    line(header),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...body.map(line),
    "",
    `Medians of ${options.rounds} interleaved rounds of ${options.calls} calls, after ${options.warmup} warm-up calls per client.`,
    "Ratios > 1 mean Conduit is better (more calls/s, fewer µs of client CPU per call).",
    `Spread (max−min)/median per row: ${rows.map((row) => `${row.unit} ${spreadText(row.spreads)}`).join("; ")}`,
    `Negotiated protocol: ${Object.entries(protocols).map(([name, version]) => `${name} ${version ?? "?"}`).join(", ")}`,
    `Machine: node ${m.node}, ${m.cpus} CPUs, ${m.platform}-${process.arch}`,
  ].join("\n");
}

function spreadText(spreads) {
  return Object.entries(spreads)
    .map(([name, value]) => `${name} ${value == null ? "—" : `${(value * 100).toFixed(0)}%`}`)
    .join(" ");
}

function round(value, unit) {
  if (value == null) return null;
  return unit === "calls/s" ? Math.round(value) : fixed(value, 2);
}

function fixed(value, digits) {
  return value == null ? null : Number(value.toFixed(digits));
}

function show(value, unit) {
  if (value == null) return "failed";
  return unit === "calls/s" ? String(Math.round(value)) : value.toFixed(2);
}
