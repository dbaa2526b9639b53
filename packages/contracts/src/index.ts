export * from "./auth.ts";
export * from "./envelope.ts";
export * from "./menu.ts";
export * from "./resource/types.ts";
export * from "./resources/index.ts";
export * from "./richtext.ts";
export * from "./website.ts";
