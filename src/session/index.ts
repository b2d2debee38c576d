export * from "./constants.ts";
export * from "./ids.ts";
export * from "./messages.ts";
export * from "./search-attributes.ts";
export * from "./session-types.ts";
export * from "./stream-topics.ts";
