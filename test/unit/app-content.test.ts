// The HTML of an app out of a `resources/read` result (src/apps/app-content.ts): which item, its
// MIME type, its size measured before decoding, and strict decoding of text and blobs.
import { describe, expect, it } from "vitest";
import { appContent, isAppMimeType } from "../../src/apps/app-content.js";
import { AppResourceError, type AppResourceFailure } from "../../src/apps/app-resource-error.js";
import { ClientError } from "../../src/util/errors.js";
import type { ReadResourceResult } from "../../src/protocol/types/index.js";

const URI = "ui://weather/view.html";
const MIME = "text/html;profile=mcp-app";
const request = { serverId: "s", uri: URI, maxBytes: 64 };
const b64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

function failure(read: unknown, maxBytes = 64): { reason: AppResourceFailure; kind: string; message: string } {
  try {
    appContent(read as ReadResourceResult, { ...request, maxBytes });
  } catch (error) {
    expect(error).toBeInstanceOf(AppResourceError);
    expect(error).toBeInstanceOf(ClientError);
    const failed = error as AppResourceError;
    expect(failed.serverId).toBe("s");
    expect(failed.uri).toBe(URI);
    expect(failed.data).toBe(read);
    return { reason: failed.reason, kind: failed.kind, message: failed.message };
  }
  throw new Error("no failure");
}

describe("the app MIME type", () => {
  it.each([MIME, "text/html; profile=mcp-app", "TEXT/HTML;Profile=mcp-app", 'text/html;profile="mcp-app"', "text/html;profile=mcp-app;charset=utf-8", "text/html; charset=UTF-8; profile=mcp-app"])("takes %s", (type) => {
    expect(isAppMimeType(type)).toBe(true);
  });
  it.each(["text/html", "text/html;profile=mcp-apps", "text/html;profile=MCP-APP", "text/plain;profile=mcp-app", "text/html;profile=mcp-app;charset=latin1", "text/html;profile=mcp-app;x=1", "text/html;profile", "text/html;profile=mcp-app;profile=mcp-app", "text/uri-list", "", undefined, 7])(
    "refuses %s",
    (type) => {
      expect(isAppMimeType(type)).toBe(false);
    },
  );
});

describe("appContent", () => {
  it("takes the text, and the item's _meta.ui", () => {
    const ui = { prefersBorder: true };
    expect(appContent({ contents: [{ uri: URI, mimeType: MIME, text: "<p>hi</p>", _meta: { ui } }] }, request)).toEqual({ html: "<p>hi</p>", ui });
  });

  it("decodes a blob as UTF-8, and takes Base64 wrapped in lines", () => {
    expect(appContent({ contents: [{ uri: URI, mimeType: MIME, blob: b64("<p>é ☃ 😀</p>") }] }, request).html).toBe("<p>é ☃ 😀</p>");
    const wrapped = b64("<p>a longer page of html</p>").replace(/(.{8})/g, "$1\r\n");
    expect(appContent({ contents: [{ uri: URI, mimeType: MIME, blob: wrapped }] }, request).html).toBe("<p>a longer page of html</p>");
  });

  it("picks the item of the URI with the app type among several, else the only one", () => {
    const read = {
      contents: [
        { uri: "ui://other", mimeType: MIME, text: "other" },
        { uri: URI, mimeType: "text/plain", text: "plain" },
        { uri: URI, mimeType: MIME, text: "mine" },
      ],
    };
    expect(appContent(read, request).html).toBe("mine");
    expect(appContent({ contents: [{ uri: "ui://weather/view.html?v=2", mimeType: MIME, text: "only" }] }, request).html).toBe("only");
  });

  it("refuses no contents, and contents none of which is for the URI", () => {
    expect(failure({ contents: [] })).toMatchObject({ reason: "content", kind: "protocol", message: expect.stringContaining("no contents") as unknown });
    expect(failure({ contents: [{ uri: "ui://a", mimeType: MIME, text: "a" }, { uri: "ui://b", mimeType: MIME, text: "b" }] })).toMatchObject({ reason: "content" });
    expect(failure({ contents: [{ uri: URI, mimeType: MIME }] })).toMatchObject({ reason: "content", message: expect.stringContaining("neither a text nor a blob") as unknown });
  });

  it("refuses another MIME type, or none, naming it", () => {
    expect(failure({ contents: [{ uri: URI, mimeType: "text/html", text: "<p>" }] })).toMatchObject({ reason: "mime", kind: "protocol", message: expect.stringContaining('"text/html"') as unknown });
    expect(failure({ contents: [{ uri: URI, text: "<p>" }] })).toMatchObject({ reason: "mime", message: expect.stringContaining("no MIME type") as unknown });
  });

  it("bounds the size in UTF-8 bytes, at the bound and one past it, for text and blob alike", () => {
    const at = "é".repeat(32); // 64 bytes
    expect(appContent({ contents: [{ uri: URI, mimeType: MIME, text: at }] }, request).html).toBe(at);
    expect(failure({ contents: [{ uri: URI, mimeType: MIME, text: `${at}x` }] })).toMatchObject({ reason: "size", kind: "unsupported", message: expect.stringContaining("65 bytes") as unknown });
    expect(failure({ contents: [{ uri: URI, mimeType: MIME, text: "x".repeat(1000) }] })).toMatchObject({ reason: "size", message: expect.stringContaining("at least 1000 bytes") as unknown });
    expect(appContent({ contents: [{ uri: URI, mimeType: MIME, blob: b64(at) }] }, request).html).toBe(at);
    expect(failure({ contents: [{ uri: URI, mimeType: MIME, blob: b64(`${at}x`) }] })).toMatchObject({ reason: "size", message: expect.stringContaining("65 bytes") as unknown });
    expect(appContent({ contents: [{ uri: URI, mimeType: MIME, text: "x".repeat(1000) }] }, { ...request, maxBytes: Infinity }).html).toHaveLength(1000);
  });

  it("refuses a blob that is not Base64 or not UTF-8, and a text with a lone surrogate", () => {
    expect(failure({ contents: [{ uri: URI, mimeType: MIME, blob: "not base64!" }] })).toMatchObject({ reason: "encoding", kind: "protocol" });
    expect(failure({ contents: [{ uri: URI, mimeType: MIME, blob: "abc" }] })).toMatchObject({ reason: "encoding" });
    expect(failure({ contents: [{ uri: URI, mimeType: MIME, blob: "PHA-_w" }] })).toMatchObject({ reason: "encoding" });
    expect(failure({ contents: [{ uri: URI, mimeType: MIME, blob: btoa("\xff\xfe<p>") }] })).toMatchObject({ reason: "encoding", message: expect.stringContaining("not UTF-8") as unknown });
    expect(failure({ contents: [{ uri: URI, mimeType: MIME, blob: btoa("\xed\xa0\x80") }] })).toMatchObject({ reason: "encoding" });
    expect(failure({ contents: [{ uri: URI, mimeType: MIME, text: "<p>\ud800</p>" }] })).toMatchObject({ reason: "encoding", message: expect.stringContaining("lone surrogate") as unknown });
    expect(appContent({ contents: [{ uri: URI, mimeType: MIME, text: "<p>😀</p>" }] }, request).html).toBe("<p>😀</p>");
  });
});
