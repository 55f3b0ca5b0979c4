// Wall time and this process's CPU time around a piece of work. The servers run in their own
// processes, so the CPU time is the client's alone (plus the harness's loop, alike for all).
import { performance } from "node:perf_hooks";

export async function measure(work) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await work();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { seconds: ms / 1_000, cpuMicros: cpu.user + cpu.system };
}
