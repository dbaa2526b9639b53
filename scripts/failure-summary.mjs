// A test reporter that prints nothing while tests pass and, at the end, one line per failed or
// cancelled test with its file and the reason. The main reporter's output is long (TAP in CI) and
// only its tail may be kept, so what went wrong is repeated where the tail shows it.
import path from "node:path";

/** The test's own message, without the runner's wrapping of the error it threw. */
function reasonOf(error) {
  const cause = error?.cause ?? error;
  const text = cause instanceof Error ? cause.message : String(cause ?? "");
  return text.split("\n").slice(0, 12).join(" | ").slice(0, 1500);
}

export default async function* failureSummary(source) {
  const failed = [];
  const names = new Map();
  for await (const event of source) {
    const { data } = event;
    // Remember each level's name as it starts, so a nested failure prints its whole path.
    if (event.type === "test:start") names.set(`${data.file}:${data.nesting}`, data.name);
    if (event.type !== "test:fail") continue;
    const trail = [];
    for (let level = 0; level < data.nesting; level++) trail.push(names.get(`${data.file}:${level}`) ?? "?");
    trail.push(data.name);
    const error = data.details?.error;
    failed.push({
      file: data.file ? path.relative(process.cwd(), data.file) : "?",
      name: trail.join(" > "),
      kind: error?.failureType ?? "failure",
      reason: reasonOf(error),
    });
  }
  if (failed.length === 0) return;
  yield `\n# ${failed.length} failed or cancelled (suites included):\n`;
  for (const item of failed) yield `#   [${item.kind}] ${item.file} :: ${item.name} :: ${item.reason}\n`;
}
