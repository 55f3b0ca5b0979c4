// What servers repeat, told the person once: a list change until the person's next command, a
// task's status until it changes; the memory of tasks is bounded.
import { describe, expect, it } from "vitest";
import { Notices } from "../../src/cli/notices.js";

describe("notices", () => {
  it("tell a list change once per server and kind, until the person gives a command", () => {
    const notices = new Notices();
    expect([1, 2, 3, 4, 5].map(() => notices.listChanged("a", "tools"))).toEqual([true, false, false, false, false]);
    expect(notices.listChanged("a", "prompts")).toBe(true);
    expect(notices.listChanged("b", "tools")).toBe(true);
    notices.settle();
    expect(notices.listChanged("a", "tools")).toBe(true);
  });

  it("tell a task's status when it differs from the last told for that task", () => {
    const notices = new Notices();
    const lines = ["working", "working", "input_required", "input_required", "working", "completed", "completed"].map((status) => notices.taskLine("a", "t1", `task t1: ${status}`));
    expect(lines).toEqual([true, false, true, false, true, true, false]);
    expect(notices.taskLine("b", "t1", "task t1: completed")).toBe(true);
  });

  it("remember the last status of at most a thousand tasks", () => {
    const notices = new Notices();
    for (let i = 0; i < 1_001; i++) notices.taskLine("a", `t${i}`, "task: working");
    // The first was forgotten: told again; the last is remembered.
    expect(notices.taskLine("a", "t1000", "task: working")).toBe(false);
    expect(notices.taskLine("a", "t0", "task: working")).toBe(true);
  });
});
