// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";

// Code the workflow sandbox imports must stay deterministic: no Node APIs, no
// environment, no clock, no randomness. The same rules keep the pure
// orchestration core free of I/O.
const nodeModules = [
  "node:*",
  "fs",
  "path",
  "os",
  "child_process",
  "http",
  "https",
  "net",
  "crypto",
  "process",
];
const sandboxRestrictions = {
  "no-restricted-imports": [
    "error",
    {
      patterns: [
        { group: nodeModules, message: "Deterministic code must not use Node APIs." },
        {
          group: [
            "**/activities/*",
            "**/activities/**",
            "@temporalio/client",
            "@temporalio/worker",
            "@temporalio/activity",
          ],
          allowTypeImports: true,
          message:
            "Workflow code may import activities and Node-side Temporal packages as types only.",
        },
      ],
    },
  ],
  "no-restricted-globals": [
    "error",
    { name: "process", message: "Read configuration in entry points and pass it down." },
    { name: "setTimeout", message: "Use the workflow's sleep/condition, never timers." },
    { name: "setInterval", message: "Use the workflow's sleep/condition, never timers." },
    { name: "fetch", message: "I/O belongs in activities." },
  ],
  "no-restricted-properties": [
    "error",
    { object: "Date", property: "now", message: "No clock in deterministic code." },
    { object: "Math", property: "random", message: "No randomness in deterministic code." },
  ],
  "no-restricted-syntax": [
    "error",
    {
      selector: "NewExpression[callee.name='Date'][arguments.length=0]",
      message: "No clock in deterministic code.",
    },
  ],
};

export default tseslint.config(
  {
    ignores: ["node_modules/", "dist/", "coverage/", "agents/**/*.json", "test/replay/histories/"],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // node:test's describe/it return promises the runner tracks itself.
      "@typescript-eslint/no-floating-promises": [
        "error",
        {
          allowForKnownSafeCalls: [
            { from: "package", package: "node:test", name: ["describe", "it", "test", "suite"] },
          ],
        },
      ],
      "@typescript-eslint/restrict-template-expressions": [
        "error",
        { allowNumber: true, allowBoolean: true },
      ],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
    },
  },
  {
    files: ["src/orchestration/**/*.ts", "src/tools/**/*.ts", "workflows/**/*.ts"],
    rules: sandboxRestrictions,
  },
  {
    // The web console runs in the browser: its own tsconfig (DOM, JSX), Vite bundles it.
    files: ["src/web/**/*.{ts,tsx}"],
    languageOptions: {
      parserOptions: {
        projectService: false,
        project: ["./src/web/tsconfig.json", "./src/web/tsconfig.node.json"],
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  { files: ["eslint.config.js"], ...tseslint.configs.disableTypeChecked },
);
