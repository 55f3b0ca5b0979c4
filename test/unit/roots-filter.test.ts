// Roots filtering (src/input/roots.ts): only file:// URIs on the local host are sent, with
// `.`/`..` resolved (seed "Roots"; digest §3.4: validate root URIs against path traversal).
import { describe, expect, it } from "vitest";
import { filterRoots } from "../../src/input/roots.js";

function filtered(roots: unknown[]) {
  const verdict = filterRoots({ roots });
  if (!verdict.ok) throw new Error(verdict.reason);
  return verdict.value;
}

const sentUri = (uri: string): string | undefined => filtered([{ uri }]).result.roots[0]?.uri;

describe("filterRoots: what is sent", () => {
  it("keeps a local file:// URI with its name", () => {
    expect(filterRoots({ roots: [{ uri: "file:///home/ada/project", name: "Project" }] })).toEqual({
      ok: true,
      value: { result: { roots: [{ uri: "file:///home/ada/project", name: "Project" }] }, dropped: [] },
    });
  });

  it("resolves . and .. segments", () => {
    expect(sentUri("file:///a/../b")).toBe("file:///b");
    expect(sentUri("file:///a/./b")).toBe("file:///a/b");
    expect(sentUri("file:///home/ada/../../etc")).toBe("file:///etc");
    expect(sentUri("file:///../../../etc/passwd")).toBe("file:///etc/passwd");
  });

  it("resolves percent-encoded dot segments too", () => {
    expect(sentUri("file:///a/%2e%2e/b")).toBe("file:///b");
    expect(sentUri("file:///a/%2E%2E/b")).toBe("file:///b");
    expect(sentUri("file:///a/.%2e/b")).toBe("file:///b");
    expect(sentUri("file:///a/%2e/b")).toBe("file:///a/b");
  });

  it("reads file://localhost/ as the local host", () => {
    expect(sentUri("file://localhost/x")).toBe("file:///x");
    expect(sentUri("file://LOCALHOST/x/../y")).toBe("file:///y");
  });

  it("normalises the scheme's case and keeps a Windows drive", () => {
    expect(sentUri("FILE:///tmp/x")).toBe("file:///tmp/x");
    expect(sentUri("file:///C:/Users/../work")).toBe("file:///C:/work");
  });

  it("keeps a string name and an object _meta, and nothing else", () => {
    const { result } = filtered([{ uri: "file:///a", name: "A", _meta: { k: 1 }, extra: "x" }, { uri: "file:///b", name: 7, _meta: "m" }]);
    expect(result).toEqual({ roots: [{ uri: "file:///a", name: "A", _meta: { k: 1 } }, { uri: "file:///b" }] });
  });

  it("sends an empty list as it is", () => {
    expect(filterRoots({ roots: [] })).toEqual({ ok: true, value: { result: { roots: [] }, dropped: [] } });
  });
});

describe("filterRoots: what is dropped, with a reason each", () => {
  it("drops file:// URIs on another host", () => {
    expect(filtered([{ uri: "file://otherhost/x" }])).toEqual({
      result: { roots: [] },
      dropped: [{ uri: "file://otherhost/x", reason: "on another host (otherhost)" }],
    });
    expect(filtered([{ uri: "file://server.example/share" }]).dropped).toEqual([
      { uri: "file://server.example/share", reason: "on another host (server.example)" },
    ]);
    // Only the empty host and localhost count as local: an address is not taken on trust.
    expect(filtered([{ uri: "file://127.0.0.1/x" }]).dropped).toEqual([{ uri: "file://127.0.0.1/x", reason: "on another host (127.0.0.1)" }]);
  });

  it("drops other schemes", () => {
    for (const uri of ["http://example.com/x", "https://example.com/x", "ftp://example.com/x", "data:text/plain,x", "vscode://file/x"]) {
      expect(filtered([{ uri }]).dropped, uri).toEqual([{ uri, reason: "not a file:// URI" }]);
    }
  });

  it("drops what is not a URL", () => {
    for (const uri of ["/home/ada", "project", "", "file://[bad/x", "file://host:8080/x"]) {
      expect(filtered([{ uri }]).dropped, uri).toEqual([{ uri, reason: "not a URL" }]);
    }
  });

  it("drops a uri that is not a string, and an entry that is not an object", () => {
    expect(filtered([{ uri: 42 }, { name: "no uri" }, "file:///x", null]).dropped).toEqual([
      { uri: 42, reason: "uri is not a string" },
      { uri: undefined, reason: "uri is not a string" },
      { uri: undefined, reason: "uri is not a string" },
      { uri: undefined, reason: "uri is not a string" },
    ]);
  });

  it("keeps the order of what it sends and of what it drops", () => {
    expect(
      filtered([
        { uri: "file:///one", name: "1" },
        { uri: "https://evil.example/" },
        { uri: "file:///two/./x" },
        { uri: "file://nas/three" },
        { uri: "file://localhost/four" },
      ]),
    ).toEqual({
      result: { roots: [{ uri: "file:///one", name: "1" }, { uri: "file:///two/x" }, { uri: "file:///four" }] },
      dropped: [
        { uri: "https://evil.example/", reason: "not a file:// URI" },
        { uri: "file://nas/three", reason: "on another host (nas)" },
      ],
    });
  });
});

describe("filterRoots: invalid answers", () => {
  it("is not ok without a roots array", () => {
    const notOk = { ok: false, reason: "the answer must be { roots: [...] }" };
    for (const answer of [undefined, null, "file:///x", [], [{ uri: "file:///x" }], {}, { roots: "file:///x" }, { roots: { uri: "file:///x" } }]) {
      expect(filterRoots(answer), JSON.stringify(answer) ?? "undefined").toEqual(notOk);
    }
  });
});
