import { runFrameCli } from "./frame-core.ts";

// Thin process wrapper; everything testable lives in frame-core.ts.
const result = runFrameCli(process.argv.slice(2));
if (result.stdout) process.stdout.write(`${result.stdout}\n`);
if (result.stderr) process.stderr.write(`${result.stderr}\n`);
process.exitCode = result.exitCode;
