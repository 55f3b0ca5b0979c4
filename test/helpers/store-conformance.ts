// What every `Store` promises, as one suite run against each store (memory, file, Redis on
// node-redis and on ioredis). A store under test comes with a second store on the same backing
// (another handle of the same file, another client of the same Redis), so that "atomic" is
// checked between callers that share nothing but the backing.
//
// Time: the memory store runs on fake timers and is moved exactly; the others keep real time,
// and a short TTL is checked only as "gone once it must have expired" (never "still there after
// X ms"), with long TTLs for "still there".
import { describe, expect, it } from "vitest";
import { ClientError, InvalidArgumentError } from "../../src/util/errors.js";
import type { Store } from "../../src/stores/store.js";

export interface StoreSubject {
  /** A fresh store, empty under its keys (a new file, a new prefix). */
  make(): Promise<{ store: Store; twin: Store }>;
  /** Lets `ms` pass: fake timers for the memory store, a real wait for the others. */
  elapse(ms: number): Promise<void>;
  /** A TTL short enough to wait out (the others use an hour). */
  shortTtlMs: number;
}

const HOUR = 3_600_000;

export function storeConformance(name: string, subject: StoreSubject): void {
  describe(`${name}: the Store contract`, () => {
    it("gets what was set, overwrites, deletes, and reads undefined for what it never had", async () => {
      const { store, twin } = await subject.make();
      expect(await store.get("absent")).toBeUndefined();
      await store.set("a", "one");
      expect(await store.get("a")).toBe("one");
      expect(await twin.get("a")).toBe("one");
      await store.set("a", "two");
      expect(await twin.get("a")).toBe("two");
      await store.set("empty", "");
      expect(await store.get("empty")).toBe("");
      await twin.delete("a");
      expect(await store.get("a")).toBeUndefined();
      // Deleting what is not there is no error.
      await expect(store.delete("a")).resolves.toBeUndefined();
      expect(await store.get("empty")).toBe("");
    });

    it("keeps keys and values as given: __proto__, spaces, unicode, JSON text", async () => {
      const { store, twin } = await subject.make();
      const pairs: [string, string][] = [
        ["__proto__", "p"],
        ["constructor", "c"],
        ["conduit:tokens:https://a.example/mcp client-1", '{"access_token":"x"}'],
        ["ключ 🔑", "значение \u0000 \n"],
      ];
      for (const [key, value] of pairs) await store.set(key, value);
      for (const [key, value] of pairs) expect(await twin.get(key)).toBe(value);
      expect(await twin.get("toString")).toBeUndefined();
    });

    it("forgets a value once its TTL has passed, keeps one with a long TTL, and a set without TTL keeps it for good", async () => {
      const { store, twin } = await subject.make();
      const short = subject.shortTtlMs;
      await store.set("short", "s", { ttlMs: short });
      await store.set("long", "l", { ttlMs: HOUR });
      await store.set("renewed", "r1", { ttlMs: short });
      await store.set("renewed", "r2");
      await subject.elapse(short * 4);
      expect(await twin.get("short")).toBeUndefined();
      expect(await store.get("short")).toBeUndefined();
      expect(await twin.get("long")).toBe("l");
      expect(await twin.get("renewed")).toBe("r2");
    });

    it("setIfAbsent writes once: true, then false with the first value kept; true again after a delete", async () => {
      const { store, twin } = await subject.make();
      expect(await store.setIfAbsent("claim", "first")).toBe(true);
      expect(await twin.setIfAbsent("claim", "second")).toBe(false);
      expect(await store.setIfAbsent("claim", "third", { ttlMs: HOUR })).toBe(false);
      expect(await twin.get("claim")).toBe("first");
      await store.delete("claim");
      expect(await twin.setIfAbsent("claim", "fourth")).toBe(true);
      expect(await store.get("claim")).toBe("fourth");
    });

    it("setIfAbsent writes again once what held the key has expired, and its own TTL holds", async () => {
      const { store, twin } = await subject.make();
      const short = subject.shortTtlMs;
      expect(await store.setIfAbsent("claim", "old", { ttlMs: short })).toBe(true);
      await store.set("plain", "p", { ttlMs: short });
      await subject.elapse(short * 4);
      expect(await twin.setIfAbsent("claim", "new", { ttlMs: short })).toBe(true);
      expect(await store.get("claim")).toBe("new");
      expect(await twin.setIfAbsent("plain", "q")).toBe(true);
      await subject.elapse(short * 4);
      expect(await store.get("claim")).toBeUndefined();
      expect(await store.get("plain")).toBe("q");
    });

    it("setIfAbsent from many callers at once, on two handles: exactly one is true, and its value is kept", async () => {
      const { store, twin } = await subject.make();
      const CALLERS = 24;
      const results = await Promise.all(Array.from({ length: CALLERS }, (_, i) => (i % 2 === 0 ? store : twin).setIfAbsent("race", `caller-${i}`, { ttlMs: HOUR })));
      const winners = results.flatMap((won, i) => (won ? [i] : []));
      expect(winners).toHaveLength(1);
      expect(await store.get("race")).toBe(`caller-${winners[0]}`);
    });

    it("refuses a TTL that is no positive integer, with an InvalidArgumentError, and writes nothing", async () => {
      const { store } = await subject.make();
      for (const ttlMs of [0, -1, 1.5, Number.NaN, Infinity]) {
        const failures = await Promise.all([store.set("bad", "x", { ttlMs }).catch((error: unknown) => error), store.setIfAbsent("bad", "x", { ttlMs }).catch((error: unknown) => error)]);
        for (const failure of failures) {
          expect(failure).toBeInstanceOf(InvalidArgumentError);
          expect(failure).not.toBeInstanceOf(ClientError);
        }
      }
      expect(await store.get("bad")).toBeUndefined();
    });
  });
}
