import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";

export default tseslint.config(
  { ignores: ["node_modules/**", ".next/**", ".next-*/**", ".data/**", "test-results/**", "playwright-report/**", "next-env.d.ts", "lib/generated/**", "dist/**"] },
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
    // Every number, rate, interval, p-value, count, date and size a person reads is written by lib/format,
    // the CLI, the client and the build scripts included (those .mjs print whole numbers only, with
    // Math.round). Tests and fixtures compute expectations freely.
    files: ["**/*.{ts,tsx,mjs}"],
    ignores: ["lib/format/**", "**/*.test.{ts,tsx}", "tests/**", "e2e/**", "testing/**", "eslint.config.mjs"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.property.name=/^(toFixed|toLocaleString|toPrecision)$/]",
          message: "Format numbers and dates with lib/format (formatDecimal, formatCount, formatPercent, formatDate, roundTo ...), the one home of how they read.",
        },
      ],
    },
  },
);
