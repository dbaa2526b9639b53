export * from "./auth.ts";
export * from "./envelope.ts";
export * from "./menu.ts";
export * from "./website.ts";
