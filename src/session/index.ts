export * from "./constants.ts";
export * from "./ids.ts";
export * from "./message-owner.ts";
export * from "./messages.ts";
export * from "./search-attributes.ts";
export * from "./session-types.ts";
export * from "./stream-topics.ts";
export * from "./tenants.ts";
