/**
 * Fuzz run (not part of the test suite): `tsx packages/protocols/src/fuzz.ts [--count N] [--seed S]`.
 * Sends one million random and mutated frames through every parser, decoder and splitter
 * (DL/T 645, CJ/T 188, DL/T 698.45, Q/GDW 1376.1 and Modbus RTU / TCP) and
 * fails loudly on anything but a ProtocolError, an out-of-bounds result or an unbounded splitter.
 */
import * as cjt188 from "./cjt188/index.ts";
import { decodeAll } from "./detect.ts";
import * as dlt645 from "./dlt645/index.ts";
import * as dlt698 from "./dlt698/index.ts";
import { ProtocolError } from "./errors.ts";
import * as modbus from "./modbus/index.ts";
import { modbusSamples } from "./modbus/samples.ts";
import * as qgdw1376 from "./qgdw1376/index.ts";
import { qgdw1376Samples } from "./qgdw1376/samples.ts";
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

const corpus = [...sampleFrames(), ...qgdw1376Samples()].map((sample) => sample.bytes);
// DL/T 698.45 frames hold their APDU behind two CRCs: mutated APDUs are re-framed with valid
// CRCs so the APDU decoder sees them too, not only the frame checks.
const frames698 = sampleFrames()
  .filter((sample) => sample.protocol === "dlt698")
  .map((sample) => dlt698.parseFrame(sample.bytes));
function reframed698(): Uint8Array {
  const frame = frames698[int(frames698.length)]!;
  return dlt698.buildFrame({
    control: frame.control,
    server: frame.server,
    client: frame.client,
    apdu: mutate(frame.apdu),
  });
}

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
  if (roll < 0.35)
    return Uint8Array.from({ length: 12 + int(60) }, (_, i) => (i === 0 || i === 7 ? 0x68 : int(256)));
  if (roll < 0.4) {
    // A 1376.1 header with equal L fields (protocol id 2) and random user data of random length.
    const bytes = Uint8Array.from({ length: 14 + int(80) }, () => int(256));
    const l = (int(90) << 2) | 2;
    bytes.set([0x68, l & 0xff, l >> 8, l & 0xff, l >> 8, 0x68]);
    return bytes;
  }
  if (roll < 0.5) return corpus[int(corpus.length)]!;
  return mutate(corpus[int(corpus.length)]!);
}

// Modbus has no start byte: its inputs are its own corpus, random bytes and mutations of it.
const modbusCorpus = modbusSamples();
function modbusInput(): Uint8Array {
  const roll = random();
  if (roll < 0.3) return Uint8Array.from({ length: int(270) }, () => int(256));
  if (roll < 0.5) return modbusCorpus[int(modbusCorpus.length)]!.bytes;
  return mutate(modbusCorpus[int(modbusCorpus.length)]!.bytes);
}
/** A mutated PDU re-framed with a valid CRC, so the PDU decoders see it, not only the CRC check. */
function reframedModbus(): Uint8Array {
  const sample = modbusCorpus[int(modbusCorpus.length)]!;
  const adu =
    sample.transport === "rtu" ? modbus.parseRtuFrame(sample.bytes) : modbus.parseTcpFrame(sample.bytes);
  const pdu = mutate(adu.pdu).subarray(0, 253);
  return modbus.buildRtuFrame(adu.unit, pdu.length === 0 ? Uint8Array.of(0) : pdu);
}
const modbusRequests = modbusCorpus
  .filter((sample) => sample.transport === "rtu" && sample.kind.includes("request"))
  .map((sample) => sample.bytes);
const rtuSplitter = new modbus.RtuReplySplitter();
const tcpSplitter = new modbus.TcpFrameSplitter();
let modbusReplies = 0;

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
  guarded("dlt698.parse+decode", () => {
    const frame = dlt698.parseFrame(bytes);
    if (frame.start < 0 || frame.end > bytes.length) throw new Error("698 frame outside the input");
    dlt698.decodeFrame(frame);
  });
  guarded("dlt698.decodeApdu (raw bytes)", () => dlt698.decodeApdu(bytes));
  guarded("dlt698.decode (mutated APDU, valid CRCs)", () => {
    const decoded = dlt698.decodeFrame(dlt698.parseFrame(reframed698()));
    if (decoded.apduError) throw new ProtocolError("bad-apdu", decoded.apduError);
  });
  guarded("auto decodeAll", () => decodeAll(bytes));
  guarded("qgdw1376.parse+decode", () => {
    const frame = qgdw1376.parseFrame(bytes);
    if (frame.start < 0 || frame.end > bytes.length) throw new Error("frame outside the input");
    qgdw1376.decodeFrame(frame);
  });
  for (const protocol of ["dlt645", "cjt188", "auto"] as const) {
    const result = splitFrames(bytes, { protocol });
    if (
      result.consumed > bytes.length ||
      (result.consumed < bytes.length && bytes.length - result.consumed >= 268)
    ) {
      throw new Error(`splitter ${protocol} did not progress on ${Buffer.from(bytes).toString("hex")}`);
    }
  }
  const mb = modbusInput();
  guarded("modbus rtu parse+decode", () => modbus.decodeAdu(modbus.parseRtuFrame(mb)));
  guarded("modbus tcp parse+decode", () => {
    const frame = modbus.parseTcpFrame(mb);
    if (frame.length > mb.length || frame.length > modbus.TCP_MAX_LENGTH)
      throw new Error("MBAP frame outside the input");
    modbus.decodeAdu(frame);
  });
  guarded("modbus decode (mutated PDU, valid CRC)", () =>
    modbus.decodeAdu(modbus.parseRtuFrame(reframedModbus())),
  );
  guarded("modbus raw PDU as reply", () => modbus.decodeReply(mb));
  guarded("modbus raw PDU as request", () => modbus.decodeRequest(mb));
  if (rtuSplitter.awaiting === undefined || random() < 0.1)
    rtuSplitter.expect(modbusRequests[int(modbusRequests.length)]!);
  if (rtuSplitter.push(mb)) modbusReplies++;
  tcpSplitter.push(mb);
  if (rtuSplitter.pending >= modbus.RTU_MAX_LENGTH || tcpSplitter.pending >= modbus.TCP_MAX_LENGTH)
    throw new Error(`modbus splitter holds ${rtuSplitter.pending} / ${tcpSplitter.pending} bytes`);
  for (const [protocol, splitter] of streams) {
    streamFrames += splitter.push(bytes).length;
    if (splitter.pending >= 268)
      throw new Error(`stream splitter ${protocol} holds ${splitter.pending} bytes`);
  }
}
const seconds = (performance.now() - started) / 1000;

console.log(
  `fuzz: ${COUNT.toLocaleString("en")} inputs (30% random, 5% random with 68 at 0 and 7, 5% random 1376.1 headers, 10% valid, 50% mutated; corpus: 645, 188 and 1376.1 frames) in ${seconds.toFixed(1)} s, node ${process.version}`,
);
for (const [key, value] of [...counts].sort())
  console.log(`  ${key.padEnd(36)} ${value.toLocaleString("en")}`);
console.log(
  `  stream splitters (dlt645, cjt188, auto) emitted ${streamFrames.toLocaleString("en")} frames; garbage skipped ${streams.map(([, s]) => s.skipped.toLocaleString("en")).join(" / ")} bytes`,
);
console.log(
  `  modbus: ${COUNT.toLocaleString("en")} more inputs (30% random, 20% valid, 50% mutated; corpus ${modbusCorpus.length} RTU/TCP frames); RTU reply splitter found ${modbusReplies.toLocaleString("en")} replies, skipped ${rtuSplitter.skipped.toLocaleString("en")} bytes; TCP splitter skipped ${tcpSplitter.skipped.toLocaleString("en")}`,
);
console.log("fuzz: no crash");
