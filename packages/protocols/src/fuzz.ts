/**
 * Fuzz run (not part of the test suite): `tsx packages/protocols/src/fuzz.ts [--count N] [--seed S]`.
 * Sends one million random and mutated frames through every parser, decoder and splitter and
 * fails loudly on anything but a ProtocolError, an out-of-bounds result or an unbounded splitter.
 */
import * as cjt188 from "./cjt188/index.ts";
import { decodeAll } from "./detect.ts";
import * as dlt645 from "./dlt645/index.ts";
import { ProtocolError } from "./errors.ts";
import { sampleFrames } from "./sample-frames.ts";
import { FrameSplitter, type StreamProtocol, splitFrames } from "./splitter.ts";

const argValue = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const COUNT = argValue("count", 1_000_000);
let seed = argValue("seed", 0x6d657465) >>> 0 || 1;

/** xorshift32: reproducible runs from a seed. */
function random(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x1_0000_0000;
}
const int = (n: number) => Math.floor(random() * n);

const corpus = sampleFrames().map((sample) => sample.bytes);

function mutate(frame: Uint8Array): Uint8Array {
  const bytes = Array.from(frame);
  const edits = 1 + int(3);
  for (let i = 0; i < edits; i++) {
    const at = int(bytes.length + 1);
    switch (int(7)) {
      case 0:
        bytes[at] = int(256);
        break; // replace
      case 1:
        bytes[at] = (bytes[at] ?? 0) ^ (1 << int(8));
        break; // bit flip
      case 2:
        bytes.splice(at, 1);
        break; // delete
      case 3:
        bytes.splice(at, 0, int(256));
        break; // insert
      case 4:
        bytes.length = at;
        break; // truncate
      case 5:
        bytes.splice(at, 0, 0x68);
        break; // false start
      default:
        bytes.unshift(...Array.from({ length: int(6) }, () => (random() < 0.5 ? 0xfe : int(256)))); // junk in front
    }
  }
  return Uint8Array.from(bytes.map((b) => b & 0xff));
}

function input(): Uint8Array {
  const roll = random();
  if (roll < 0.3) return Uint8Array.from({ length: int(80) }, () => int(256));
  if (roll < 0.4)
    return Uint8Array.from({ length: 12 + int(60) }, (_, i) => (i === 0 || i === 7 ? 0x68 : int(256)));
  if (roll < 0.5) return corpus[int(corpus.length)]!;
  return mutate(corpus[int(corpus.length)]!);
}

const counts = new Map<string, number>();
const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
function guarded(name: string, fn: () => void): void {
  try {
    fn();
    count(`${name}: ok`);
  } catch (error) {
    if (!(error instanceof ProtocolError)) throw error;
    count(`${name}: ${error.code}`);
  }
}

const streams: [StreamProtocol, FrameSplitter][] = (["dlt645", "cjt188", "auto"] as const).map((p) => [
  p,
  new FrameSplitter({ protocol: p }),
]);
let streamFrames = 0;
const started = performance.now();
for (let i = 0; i < COUNT; i++) {
  const bytes = input();
  guarded("dlt645.parse+decode", () => {
    const frame = dlt645.parseFrame(bytes);
    if (frame.start < 0 || frame.end > bytes.length) throw new Error("frame outside the input");
    dlt645.decodeFrame(frame);
    dlt645.decodeFrame(frame, { version: "1997" });
  });
  guarded("cjt188.parse+decode", () => cjt188.decodeFrame(cjt188.parseFrame(bytes)));
  guarded("auto decodeAll", () => decodeAll(bytes));
  for (const protocol of ["dlt645", "cjt188", "auto"] as const) {
    const result = splitFrames(bytes, { protocol });
    if (
      result.consumed > bytes.length ||
      (result.consumed < bytes.length && bytes.length - result.consumed >= 268)
    ) {
      throw new Error(`splitter ${protocol} did not progress on ${Buffer.from(bytes).toString("hex")}`);
    }
  }
  for (const [protocol, splitter] of streams) {
    streamFrames += splitter.push(bytes).length;
    if (splitter.pending >= 268)
      throw new Error(`stream splitter ${protocol} holds ${splitter.pending} bytes`);
  }
}
const seconds = (performance.now() - started) / 1000;

console.log(
  `fuzz: ${COUNT.toLocaleString("en")} inputs (30% random, 10% random with 68 at 0 and 7, 10% valid, 50% mutated) in ${seconds.toFixed(1)} s, node ${process.version}`,
);
for (const [key, value] of [...counts].sort())
  console.log(`  ${key.padEnd(36)} ${value.toLocaleString("en")}`);
console.log(
  `  stream splitters (dlt645, cjt188, auto) emitted ${streamFrames.toLocaleString("en")} frames; garbage skipped ${streams.map(([, s]) => s.skipped.toLocaleString("en")).join(" / ")} bytes`,
);
console.log("fuzz: no crash");
