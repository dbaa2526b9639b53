import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseHex, toHex } from "./hex.ts";
import { FrameSplitter, splitFrames } from "./splitter.ts";

const DLT = "68 AA AA AA AA AA AA 68 11 04 33 33 34 33 AE 16";
const DLT_REPLY = "68 01 72 00 72 00 00 68 91 08 33 33 34 33 33 33 33 33 E7 16";
const CJT = "68 10 12 00 00 00 00 00 00 01 03 90 1F 00 3D 16";

describe("stream splitter", () => {
  test("extracts back-to-back frames and skips preamble and garbage", () => {
    const bytes = parseHex(`FE FE FE FE ${DLT} 00 11 22 FE FE ${DLT_REPLY}`);
    const result = splitFrames(bytes, { protocol: "dlt645" });
    assert.deepEqual(
      result.frames.map((frame) => toHex(frame.bytes)),
      [DLT, DLT_REPLY],
    );
    assert.equal(result.consumed, bytes.length);
    assert.equal(result.skipped, 9);
  });

  test("keeps an incomplete frame for the next chunk and reports how much to drop", () => {
    const bytes = parseHex(`00 FE ${DLT} ${DLT_REPLY.slice(0, 23)}`);
    const result = splitFrames(bytes, { protocol: "dlt645" });
    assert.equal(result.frames.length, 1);
    assert.equal(result.consumed, 18);
    assert.equal(result.skipped, 2);
  });

  test("a garbage 0x68 that looks like an unfinished frame does not hide a later complete one", () => {
    const bytes = parseHex(`68 AA AA AA AA AA AA 68 11 FF ${CJT.replace(/^68 10/, "68 10")} ${DLT}`);
    const result = splitFrames(bytes, { protocol: "dlt645" });
    assert.deepEqual(
      result.frames.map((frame) => toHex(frame.bytes)),
      [DLT],
    );
    assert.equal(result.consumed, bytes.length);
  });

  test("auto mode finds both protocols in one stream", () => {
    const result = splitFrames(parseHex(`FE ${DLT} FE FE ${CJT} ${DLT_REPLY}`), { protocol: "auto" });
    assert.deepEqual(
      result.frames.map((frame) => frame.protocol),
      ["dlt645", "cjt188", "dlt645"],
    );
  });

  test("a corrupted frame is skipped and the stream resynchronises", () => {
    const corrupt = DLT.replace(/AE 16$/, "AF 16");
    const result = splitFrames(parseHex(`${corrupt} ${DLT_REPLY}`), { protocol: "dlt645" });
    assert.deepEqual(
      result.frames.map((frame) => toHex(frame.bytes)),
      [DLT_REPLY],
    );
  });

  test("bounded: garbage without 0x68 is consumed entirely, a claimed length above the maximum is garbage", () => {
    assert.deepEqual(splitFrames(new Uint8Array(10_000).fill(0xfe), { protocol: "auto" }), {
      frames: [],
      consumed: 10_000,
      skipped: 10_000,
    });
    const tooLong = parseHex("68 AA AA AA AA AA AA 68 91 C8");
    const result = splitFrames(tooLong, { protocol: "dlt645", maxFrameLength: 100 });
    // The first 0x68 claims 212 bytes > 100: garbage. The second 0x68 might still start a frame.
    assert.equal(result.consumed, 7);
    assert.equal(result.skipped, 7);
  });

  test("FrameSplitter: byte-by-byte delivery yields the same frames; flush drops a stale tail", () => {
    const splitter = new FrameSplitter({ protocol: "auto" });
    const stream = parseHex(`FE FE ${DLT} 12 34 ${CJT} FE ${DLT_REPLY}`);
    const frames = [];
    for (const byte of stream) frames.push(...splitter.push(Uint8Array.of(byte)));
    assert.deepEqual(
      frames.map((frame) => toHex(frame.bytes)),
      [DLT, CJT, DLT_REPLY],
    );
    assert.equal(splitter.pending, 0);
    assert.deepEqual(
      frames.map((frame) => frame.offset),
      [2, 20, 37],
      "offsets count from the start of the connection",
    );
    splitter.push(parseHex("68 01 02 03"));
    assert.equal(splitter.pending, 4);
    assert.equal(splitter.flush(), 4);
    assert.equal(splitter.pending, 0);
  });
});
