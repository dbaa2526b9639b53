/**
 * Codec throughput (not part of the test suite): `tsx packages/protocols/src/bench.ts [--iterations N]`.
 * For every frame kind of sample-frames.ts: frames parsed + decoded per second and frames built
 * per second (DL/T 645, CJ/T 188, DL/T 698.45, Q/GDW 1376.1, Modbus); then the stream splitter on a mixed byte stream. Prints the conditions with the figures.
 */
import { cpus } from "node:os";
import * as cjt188 from "./cjt188/index.ts";
import * as dlt645 from "./dlt645/index.ts";
import * as dlt698 from "./dlt698/index.ts";
import { modbusSamples } from "./modbus/samples.ts";
import * as qgdw1376 from "./qgdw1376/index.ts";
import { qgdw1376Samples } from "./qgdw1376/samples.ts";
import { sampleFrames } from "./sample-frames.ts";
import { splitFrames } from "./splitter.ts";

const at = process.argv.indexOf("--iterations");
const ITERATIONS = at === -1 ? 200_000 : Number(process.argv[at + 1]);

function perSecond(iterations: number, fn: () => unknown): number {
  for (let i = 0; i < Math.min(10_000, iterations); i++) fn(); // warm-up
  const started = performance.now();
  for (let i = 0; i < iterations; i++) fn();
  return iterations / ((performance.now() - started) / 1000);
}

const fmt = (n: number) => Math.round(n).toLocaleString("en").padStart(11);
const samples = sampleFrames();

console.log(
  `bench: node ${process.version}, ${cpus()[0]?.model ?? "unknown CPU"}, ${ITERATIONS.toLocaleString("en")} iterations per figure`,
);
console.log(
  `${"frame kind".padEnd(30)} ${"bytes".padStart(5)} ${"parsed+decoded/s".padStart(17)} ${"built/s".padStart(11)}`,
);
let parsedTotal = 0;
let builtTotal = 0;
const perProtocol = new Map<string, { parsed: number; built: number; kinds: number }>();
for (const sample of samples) {
  const parse =
    sample.protocol === "dlt645"
      ? () => dlt645.decodeFrame(dlt645.parseFrame(sample.bytes))
      : sample.protocol === "dlt698"
        ? () => dlt698.decodeFrame(dlt698.parseFrame(sample.bytes))
        : () => cjt188.decodeFrame(cjt188.parseFrame(sample.bytes));
  const parsed = perSecond(ITERATIONS, parse);
  const built = perSecond(ITERATIONS, sample.build);
  parsedTotal += parsed;
  builtTotal += built;
  const family = sample.kind.split(" ")[0]!;
  const sums = perProtocol.get(family) ?? { parsed: 0, built: 0, kinds: 0 };
  perProtocol.set(family, { parsed: sums.parsed + parsed, built: sums.built + built, kinds: sums.kinds + 1 });
  console.log(
    `${sample.kind.padEnd(30)} ${String(sample.bytes.length).padStart(5)} ${fmt(parsed).padStart(17)} ${fmt(built)}`,
  );
}
console.log(
  `${"mean over kinds".padEnd(36)} ${fmt(parsedTotal / samples.length).padStart(17)} ${fmt(builtTotal / samples.length)}`,
);
// Codec against codec in the same run: DL/T 645 (2007 and 1997), CJ/T 188 and DL/T 698.45.
for (const [family, sums] of perProtocol) {
  console.log(
    `${`mean ${family} (${sums.kinds} kinds)`.padEnd(36)} ${fmt(sums.parsed / sums.kinds).padStart(17)} ${fmt(sums.built / sums.kinds)}`,
  );
}

// Q/GDW 1376.1 in the same run, beside the 645 rows above.
let qgdwParsed = 0;
let qgdwBuilt = 0;
const qgdw = qgdw1376Samples();
for (const sample of qgdw) {
  const parsed = perSecond(ITERATIONS, () => qgdw1376.decodeFrame(qgdw1376.parseFrame(sample.bytes)));
  const built = perSecond(ITERATIONS, sample.build);
  qgdwParsed += parsed;
  qgdwBuilt += built;
  console.log(
    `${sample.kind.padEnd(30)} ${String(sample.bytes.length).padStart(5)} ${fmt(parsed).padStart(17)} ${fmt(built)}`,
  );
}
console.log(
  `${"mean over 1376.1 kinds".padEnd(36)} ${fmt(qgdwParsed / qgdw.length).padStart(17)} ${fmt(qgdwBuilt / qgdw.length)}`,
);

// Modbus RTU / TCP in the same run, beside the 645 rows above.
let modbusParsed = 0;
let modbusBuilt = 0;
const modbusKinds = modbusSamples();
for (const sample of modbusKinds) {
  const parsed = perSecond(ITERATIONS, () => sample.decode(sample.bytes));
  const built = perSecond(ITERATIONS, sample.build);
  modbusParsed += parsed;
  modbusBuilt += built;
  console.log(
    `${sample.kind.padEnd(30)} ${String(sample.bytes.length).padStart(5)} ${fmt(parsed).padStart(17)} ${fmt(built)}`,
  );
}
console.log(
  `${"mean over Modbus kinds".padEnd(36)} ${fmt(modbusParsed / modbusKinds.length).padStart(17)} ${fmt(modbusBuilt / modbusKinds.length)}`,
);

// Splitter: the whole corpus back to back with FE preambles and a few junk bytes between frames.
const stream = Uint8Array.from(samples.flatMap((sample) => [0xfe, 0xfe, 0x00, 0x13, ...sample.bytes]));
const rounds = Math.max(1, Math.floor(ITERATIONS / 20));
const splitsPerSecond = perSecond(rounds, () => splitFrames(stream, { protocol: "auto" }));
const framesPerSecond = splitsPerSecond * samples.length;
const megabytes = (splitsPerSecond * stream.length) / 1e6;
console.log(
  `splitter (auto, ${stream.length}-byte stream of ${samples.length} frames + junk): ${fmt(framesPerSecond).trim()} frames/s, ${megabytes.toFixed(1)} MB/s`,
);
