// Type-aware lint: the rules that catch the bug classes of async network code, and the layer
// rule of DESIGN.md (a layer imports only the layers below it), enforced by import zones.
import tseslint from "typescript-eslint";

const layerRule = (forbidden) => ({
  "no-restricted-imports": [
    "error",
    {
      patterns: forbidden.map((group) => ({
        group: [group],
        message: "A layer imports only the layers below it (DESIGN.md, Architecture).",
      })),
    },
  ],
});

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
      "no-restricted-syntax": [
        "error",
        {
          selector: "NewExpression[callee.name='Promise'] > :matches(ArrowFunctionExpression, FunctionExpression)[async=true]",
          message: "An async Promise executor loses its rejections: make the outer function async instead.",
        },
      ],
    },
  },
  { files: ["src/util/**"], rules: layerRule(["../transport/*", "../rpc/*", "../protocol/*", "../input/*", "../*.js"]) },
  { files: ["src/transport/**"], rules: layerRule(["../rpc/*", "../protocol/*", "../input/*", "../*.js"]) },
  { files: ["src/rpc/**"], rules: layerRule(["../protocol/*", "../input/*", "../*.js"]) },
  { files: ["src/protocol/**"], rules: layerRule(["../input/*", "../../input/*", "../*.js", "../../*.js"]) },
  { files: ["src/input/**"], rules: layerRule(["../*.js"]) },
  // Around the core: the adapters and the terminal host use the library as its users do, through
  // src/index.ts alone (the adapters for types only, so that nothing of the core is bundled in).
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
      "no-restricted-imports": ["error", { patterns: [{ group: ["../*", "!../index.js"], message: "The terminal host is built on the public API alone: import from ../index.js (DESIGN.md)." }] }],
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
