// `npm run gateway`: on the registry in PostgreSQL when DATABASE_URL is set, else the stand-alone
// gateway with a JSON meter directory (--directory). Runs the compiled code in this very process, so
// arguments (process.argv) and signals reach it unchanged.
import { compiledEntry } from "./compiled.mjs";

await import(await compiledEntry(process.env.DATABASE_URL ? "gateway-process" : "gateway"));
