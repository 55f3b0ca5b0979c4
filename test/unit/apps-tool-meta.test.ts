import { describe, expect, it } from "vitest";
import { appsToolMeta, visibleTo } from "../../src/apps/apps-tool-meta.js";

describe("appsToolMeta", () => {
  it("defaults to both audiences and no view", () => {
    expect(appsToolMeta({})).toEqual({ visibility: ["model", "app"] });
    expect(appsToolMeta({ _meta: { other: 1 } })).toEqual({ visibility: ["model", "app"] });
  });

  it("reads the view and the visibility", () => {
    expect(appsToolMeta({ _meta: { ui: { resourceUri: "ui://w/view.html", visibility: ["app"] } } })).toEqual({
      resourceUri: "ui://w/view.html",
      visibility: ["app"],
    });
    expect(appsToolMeta({ _meta: { "ui/resourceUri": "ui://old" } })).toEqual({
      resourceUri: "ui://old",
      visibility: ["model", "app"],
    });
  });

  it("reads a malformed field as absent, never as app-only", () => {
    for (const visibility of [[], ["nobody"], "app", 7, null, { app: true }]) {
      expect(visibleTo({ _meta: { ui: { visibility } } }, "model")).toBe(true);
    }
    expect(appsToolMeta({ _meta: { ui: { resourceUri: "https://x/view" } } }).resourceUri).toBeUndefined();
    expect(appsToolMeta({ _meta: { ui: { resourceUri: "ui://" } } }).resourceUri).toBeUndefined();
    expect(appsToolMeta({ _meta: { ui: ["model"] } })).toEqual({ visibility: ["model", "app"] });
  });

  it("drops unknown words beside known ones", () => {
    expect(appsToolMeta({ _meta: { ui: { visibility: ["app", "robot"] } } }).visibility).toEqual(["app"]);
    expect(visibleTo({ _meta: { ui: { visibility: ["app"] } } }, "model")).toBe(false);
    expect(visibleTo({ _meta: { ui: { visibility: ["model"] } } }, "app")).toBe(false);
  });
});
