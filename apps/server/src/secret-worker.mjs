// Worker threads do not inherit the TypeScript loader of the main thread: register it, then run.
import { register } from "tsx/esm/api";

register();
await import("./secret-worker.ts");
