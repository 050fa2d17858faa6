// What the offline scorer's bundle has in place of zod's locales index (scripts/build/build-cli.mjs): English only.
export { default as en } from "../../node_modules/zod/v4/locales/en.js";
