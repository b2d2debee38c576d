export * from "./constants.ts";
export * from "./messages.ts";
export * from "./search-attributes.ts";
export * from "./session-types.ts";
