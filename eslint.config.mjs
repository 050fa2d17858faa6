import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";

// lib/core is the pure core (CODE_STYLE.md): no server, database, I/O, clock or environment. The import
// rules are also in .dependency-cruiser.cjs (the layers); these catch the clock and the environment too.
const CORE_MESSAGE = "lib/core is the pure core: it imports lib/core, zod, yaml and node:crypto only. Take what it needs as an argument, from lib/platform or lib/domain.";
const CORE_FORBIDDEN_MODULES = [
  "server-only", "pg", "ioredis", "bullmq", "next", "next-auth", "pino", "prom-client", "busboy",
  ...["fs", "fs/promises", "child_process", "worker_threads", "net", "http", "https", "os", "path"].flatMap((name) => [name, `node:${name}`]),
];
const NUMBER_FORMAT_SELECTOR = {
  selector: "CallExpression[callee.property.name=/^(toFixed|toLocaleString|toPrecision)$/]",
  message: "Format numbers and dates with lib/core/format (formatDecimal, formatCount, formatPercent, formatDate, roundTo ...), the one home of how they read.",
};
const NO_CLOCK_SELECTOR = {
  selector: "NewExpression[callee.name='Date'][arguments.length=0]",
  message: "lib/core has no clock: take the time (a Date or epoch ms) as an argument.",
};
const coreRules = {
  "no-restricted-imports": ["error", {
    paths: CORE_FORBIDDEN_MODULES.map((name) => ({ name, message: CORE_MESSAGE })),
    patterns: [
      { group: ["@prisma/*", "@aws-sdk/*", "next/*", "next-auth/*", "pino/*", "pg/*"], message: CORE_MESSAGE },
      { regex: "^(@/lib/(platform|domain|web|client)(/|$)|(\\.\\./)+(platform|domain|web|client)(/|$)|.*/generated/prisma)", message: CORE_MESSAGE },
    ],
  }],
  "no-restricted-properties": ["error",
    { object: "Date", property: "now", message: "lib/core has no clock: take the time as an argument." },
    { object: "process", property: "env", message: "lib/core reads no environment: lib/platform/env.ts parses it; pass the value in." },
  ],
};

export default tseslint.config(
  { ignores: ["node_modules/**", ".next/**", ".next-*/**", ".data/**", "test-results/**", "playwright-report/**", "next-env.d.ts", "lib/platform/generated/**", "dist/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Plain Node scripts and config files.
    files: ["**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly", Buffer: "readonly" } },
  },
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/ban-ts-comment": "error",
    },
  },
  {
    // Every number, rate, interval, p-value, count, date and size a person reads is written by lib/core/format,
    // the CLI, the client and the build scripts included (those .mjs print whole numbers only, with
    // Math.round). Tests and fixtures compute expectations freely.
    files: ["**/*.{ts,tsx,mjs}"],
    ignores: ["lib/core/format/**", "**/*.test.{ts,tsx}", "tests/**", "e2e/**", "testing/**", "eslint.config.mjs"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.property.name=/^(toFixed|toLocaleString|toPrecision)$/]",
          message: "Format numbers and dates with lib/core/format (formatDecimal, formatCount, formatPercent, formatDate, roundTo ...), the one home of how they read.",
        },
      ],
    },
  },
  {
    files: ["lib/core/**/*.{ts,tsx,mjs}"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: { ...coreRules, "no-restricted-syntax": ["error", NUMBER_FORMAT_SELECTOR, NO_CLOCK_SELECTOR] },
  },
  {
    // lib/core/format is the home of number formatting (it may call toFixed), still without a clock.
    files: ["lib/core/format/**/*.{ts,tsx,mjs}"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: { "no-restricted-syntax": ["error", NO_CLOCK_SELECTOR] },
  },
  {
    // A function longer than this says why on the line above it (eslint-disable-next-line ... -- reason).
    files: ["{lib,app,components,workers,scripts}/**/*.{ts,tsx,mjs}", "instrumentation.ts"],
    ignores: ["**/*.test.{ts,tsx}", "lib/platform/generated/**"],
    rules: { "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }] },
  },
);
