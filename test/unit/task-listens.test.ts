// The listens for notifications/tasks, with a stand-in for subscriptions/listen that records
// what each listen asked for: ids sent and listens open stay within log₂ n of the tasks, however
// the tasks come and go; a task's end opens nothing.
import { describe, expect, it } from "vitest";
import { TaskListens } from "../../src/protocol/task-listens.js";
import type { Subscription } from "../../src/protocol/subscriptions.js";
import { capturingLogger } from "../helpers/logger.js";

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

function recording() {
  const asked: string[][] = [];
  let open = 0;
  const listens = new TaskListens(
    (taskIds) => {
      asked.push(taskIds);
      open++;
      let closed = false;
      const subscription: Subscription = {
        honoured: { taskIds },
        ended: new Promise(() => {}),
        close: () => {
          if (!closed) open--;
          closed = true;
          return Promise.resolve();
        },
      };
      return Promise.resolve(subscription);
    },
    "s",
    capturingLogger(),
  );
  return { listens, asked, open: () => open };
}

describe("TaskListens", () => {
  it("asks for tasks followed one turn at a time within n (log₂ n + 1) ids and log₂ n + 1 open listens", async () => {
    const { listens, asked, open } = recording();
    const COUNT = 256;
    let mostOpen = 0;
    for (let i = 0; i < COUNT; i++) {
      listens.followed(`t${i}`);
      await turn();
      await turn();
      mostOpen = Math.max(mostOpen, open());
    }
    const bound = Math.log2(COUNT) + 1;
    expect(asked.flat().length).toBeLessThanOrEqual(COUNT * bound);
    expect(mostOpen).toBeLessThanOrEqual(bound);
    expect(new Set(asked.flat()).size).toBe(COUNT);
    // Ending them, one a turn, opens no listen and closes every one.
    const listensBefore = asked.length;
    for (let i = 0; i < COUNT; i++) {
      listens.unfollowed(`t${i}`);
      await turn();
    }
    expect(asked).toHaveLength(listensBefore);
    expect(open()).toBe(0);
  });

  it("gives the tasks followed in one turn one listen, and closes a listen whose tasks ended before it opened", async () => {
    const { listens, asked, open } = recording();
    listens.followed("a");
    listens.followed("b");
    await turn();
    listens.followed("c");
    listens.unfollowed("c");
    await turn();
    expect(asked).toEqual([["a", "b"]]);
    listens.unfollowed("a");
    listens.unfollowed("b");
    expect(open()).toBe(0);
  });
});
