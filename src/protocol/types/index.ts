export type * from "./base.js";
export { LOGGING_LEVELS } from "./base.js";
export type * from "./content.js";
export type * from "./tools.js";
export type * from "./resources.js";
export type * from "./prompts.js";
export type * from "./client-features.js";
export type * from "./tasks.js";
