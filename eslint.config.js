// Type-aware lint: the rules that catch the bug classes of async network code, and the layer
// rules of DESIGN.md, enforced by import zones:
//
// - the core's layers, each importing only those below it: util < transport < rpc < protocol <
//   input < the root files (src/*.ts: the facade);
// - nothing of the core's layers imports what sits around the core (auth/, host/, ext/, cli/,
//   apps/, adapters/), and the root files reach each of those through one seam: auth/ through
//   targets.ts (the transport made from a target), host/ through client.ts (the Client's host
//   methods), ext/ and apps/ through index.ts (the public API) alone;
// - auth/ imports of the core util/, the transport's Authorizer interface and the Store
//   interface (stores/); host/, ext/ and apps/ use the core as a host does: index.ts, the root files,
//   util/, and of protocol/ the spec's types, versions, the method table, the listing walk of
//   results.js and subscriptions; stores/ and apps/bridge/ import util/ alone; adapters/ and
//   cli/ import index.ts alone.
//
// - the package's root is web-standard (issue 21): only src/node/ (behind the Node entry,
//   src/node.ts) and cli/ import Node's modules or name `process`, `Buffer` or `require`; the
//   core reaches src/node/ only through what the Node entry installs (platform.ts,
//   util/runtime.ts), and index.ts never imports node.ts or src/node/.
//
// The rules name folders and patterns, not files, so that they hold while files move.
import tseslint from "typescript-eslint";

const LAYERS = "A layer imports only the layers below it (DESIGN.md, Architecture).";
const AROUND = ["auth", "host", "ext", "apps", "cli", "adapters"];
const NOT_AROUND = "The core imports nothing of auth/, host/, ext/, apps/, cli/ or adapters/: the root files reach them through their seams (targets.ts, client.ts, index.ts).";

const WEB = "The root is web-standard: only src/node/ (behind the Node entry) and cli/ use Node (issue 21). Put what needs Node behind platform.ts or util/runtime.ts.";
const NODE_ONLY = [WEB, "node:*", "**/node/*", "**/node.js"];

/**
 * `no-restricted-imports` with one message per group of patterns (gitignore syntax; `!` allows),
 * and in every zone the web rule: nothing of Node.
 */
const zone = (...groups) => ({
  "no-restricted-imports": ["error", { patterns: [...groups, NODE_ONLY].map(([message, ...group]) => ({ group, message })) }],
});

/** Node's globals, which the web entry may not name (`globalThis.crypto` and the like are the web's). */
const NODE_GLOBALS = ["process", "Buffer", "require", "global", "__dirname", "__filename", "setImmediate"].map((name) => ({ name, message: WEB }));

const ASYNC_EXECUTOR = {
  selector: "NewExpression[callee.name='Promise'] > :matches(ArrowFunctionExpression, FunctionExpression)[async=true]",
  message: "An async Promise executor loses its rejections: make the outer function async instead.",
};
const SPREAD_THEN_MORE = {
  selector: "ObjectExpression > SpreadElement ~ *",
  message: "A field or spread after a spread makes a slow object in V8: put fields before the spread, or use copyOwn/withField (util/sanitize.ts).",
};

/** A layer of the core: `above` are the layers it may not import; `up` is the path to src/. */
const layer = (above, up = ["../"]) =>
  zone([LAYERS, ...above.flatMap((target) => up.map((prefix) => `${prefix}${target}`))], [NOT_AROUND, ...AROUND.flatMap((folder) => up.map((prefix) => `${prefix}${folder}/*`))]);

const ROOT_SEAMS = {
  auth: "auth/ is reached from the root files through targets.ts alone (the auth seam).",
  host: "host/ is reached from the root files through client.ts alone (the host seam).",
  outside: "ext/ and apps/ are reached through index.ts alone; cli/ and adapters/ import the core, never the reverse.",
};

/** What host/, ext/ and apps/ may not import: `others` are the siblings each must leave alone. */
const besideTheCore = (...others) =>
  zone(
    ["host/ and ext/ use the core as a host does: index.ts, the root files, util/ and the public parts of protocol/ (DESIGN.md).", "../transport/*", "../rpc/*", "../input/*", "../auth/*", "../cli/*", "../adapters/*", ...others.map((other) => `../${other}/*`), "../client.js"],
    ["Of protocol/, host/ and ext/ import the spec's types, versions, the method table, results' listing walk and subscriptions alone.", "../protocol/*", "!../protocol/types", "!../protocol/versions.js", "!../protocol/methods.js", "!../protocol/results.js", "!../protocol/subscriptions.js"],
  );

export default tseslint.config(
  // The package consumer is type-checked by scripts/check-package.mjs against an install of the
  // packed tarball; here `conduit-mcp` would resolve to whatever dist/ holds.
  { ignores: ["dist/**", "node_modules/**", "coverage/**", "**/*.mjs", "**/*.js", "scripts/package-consumer/**"] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      "@typescript-eslint/only-throw-error": "off",
      "@typescript-eslint/prefer-promise-reject-errors": "off",
      "no-restricted-syntax": ["error", ASYNC_EXECUTOR],
    },
  },
  // The message path's own folders: an object literal with anything after a spread gets, in V8,
  // a map of its own each time it is made (1–3 µs, and every later access to it a miss).
  { files: ["src/util/**", "src/transport/**", "src/rpc/**", "src/input/**"], rules: { "no-restricted-syntax": ["error", ASYNC_EXECUTOR, SPREAD_THEN_MORE] } },
  { files: ["src/util/**"], rules: layer(["transport/*", "rpc/*", "protocol/*", "input/*", "*.js"]) },
  { files: ["src/transport/**"], rules: layer(["rpc/*", "protocol/*", "input/*", "*.js"]) },
  { files: ["src/rpc/**"], rules: layer(["protocol/*", "input/*", "*.js"]) },
  // protocol/types/ is a level deeper.
  { files: ["src/protocol/**"], rules: layer(["input/*", "*.js"], ["../", "../../"]) },
  { files: ["src/input/**"], rules: layer(["*.js"]) },
  // The root files: each folder around the core through its one seam.
  {
    files: ["src/*.ts"],
    ignores: ["src/index.ts", "src/client.ts", "src/targets.ts", "src/node.ts"],
    rules: zone([ROOT_SEAMS.auth, "./auth/*"], [ROOT_SEAMS.host, "./host/*"], [ROOT_SEAMS.outside, "./ext/*", "./apps/*", "./cli/*", "./adapters/*"]),
  },
  { files: ["src/client.ts"], rules: zone([ROOT_SEAMS.auth, "./auth/*"], [ROOT_SEAMS.outside, "./ext/*", "./apps/*", "./cli/*", "./adapters/*"]) },
  { files: ["src/targets.ts"], rules: zone([ROOT_SEAMS.host, "./host/*"], [ROOT_SEAMS.outside, "./ext/*", "./apps/*", "./cli/*", "./adapters/*"]) },
  {
    files: ["src/index.ts"],
    rules: zone(
      ["The public API does not load the terminal host or the adapters' subpath.", "./cli/*", "./adapters/*"],
      // A host that renders no app loads none of it (issue 23): the root takes what the catalog reads of a tool.
      ["Of apps/, the root entry takes the extension and tools' visibility alone; the rest is on conduit-mcp/apps.", "./apps/*", "!./apps/apps-tool-meta.js", "!./apps/apps-extension.js"],
    ),
  },
  // Around the core.
  {
    files: ["src/auth/**"],
    rules: zone(
      ["auth/ imports of the core util/, the transport's Authorizer interface and the Store interface alone (DESIGN.md).", "../*", "!../util", "!../transport", "!../stores"],
      ["Of transport/, auth/ imports the Authorizer interface alone.", "../transport/*", "!../transport/http-authorizer.js"],
    ),
  },
  { files: ["src/host/**"], rules: besideTheCore("ext", "apps") },
  { files: ["src/ext/**"], rules: besideTheCore("host", "apps") },
  { files: ["src/apps/*.ts"], rules: besideTheCore("host", "ext") },
  { files: ["src/stores/**"], rules: zone(["stores/ imports util/ alone.", "../*", "!../util"]) },
  // The apps bridge is its own subpath for a host's page: of the core it takes util/ alone, so
  // that mounting a view loads nothing of the client.
  { files: ["src/apps/bridge/**"], rules: zone(["apps/bridge/ imports util/ alone (its own subpath, DESIGN.md).", "../*.js", "../../*", "!../../util"]) },
  // Everything of src/ but the Node entry's folder and the terminal host names no Node global.
  { files: ["src/**"], ignores: ["src/node/**", "src/node.ts", "src/cli/**"], rules: { "no-restricted-globals": ["error", ...NODE_GLOBALS] } },
  // The Node entry: the web entry and src/node/; src/node/ uses the core below the facade.
  { files: ["src/node.ts"], rules: { "no-restricted-imports": ["error", { patterns: [{ group: ["./*", "!./index.js", "!./node"], message: "The Node entry adds src/node/ to the web entry (index.ts) alone." }] }] } },
  {
    files: ["src/node/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["../*", "!../util", "!../transport", "!../stores", "!../auth", "!../platform.js", "../auth/*", "!../auth/auth-error.js", "!../auth/options.js"], message: "src/node/ imports of the core util/, transport/, stores/, platform.ts and auth/'s errors and options alone." }] },
      ],
    },
  },
  // The adapters and the terminal host use the library as its users do, through src/index.ts
  // alone (the adapters for types only, so that nothing of the core is bundled in).
  {
    files: ["src/adapters/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [{ group: ["../*", "!../index.js"], message: "The adapters import the core only through src/index.ts (DESIGN.md)." }],
          paths: [{ name: "../index.js", allowTypeImports: true, message: "Types only: a value import would bundle the core into dist/adapters/index.js." }],
        },
      ],
    },
  },
  {
    files: ["src/cli/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["../*", "!../node.js", "!../apps", "../apps/*", "!../apps/index.js", "!../apps/bridge", "../apps/bridge/*", "!../apps/bridge/proxy.js"], message: "The terminal host is built on the public API alone, as a Node host: import from ../node.js, or the public conduit-mcp/apps and conduit-mcp/apps-bridge/proxy (DESIGN.md)." }] }],
    },
  },
  {
    files: ["test/**", "bench/**", "examples/**", "scripts/**"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
);
