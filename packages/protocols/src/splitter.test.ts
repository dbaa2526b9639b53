import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { buildGetResponse } from "./dlt698/replies.ts";
import { buildGet } from "./dlt698/requests.ts";
import { concatBytes, parseHex, toHex } from "./hex.ts";
import { buildHeartbeat, buildLogin } from "./qgdw1376/replies.ts";
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

  test("any mode finds DL/T 645, CJ/T 188 and DL/T 698.45 frames on one stream, byte by byte too", () => {
    const get = toHex(buildGet("202600000042", ["00100200", "202C0200"], { piid: 5 }));
    const reply = toHex(
      buildGetResponse("202600000042", [
        { oad: "202C0200", result: { data: { type: "double-long-unsigned", value: 12345 } } },
      ]),
    );
    const stream = parseHex(`FE FE ${DLT} FE FE FE FE ${get} 00 ${CJT} ${reply} ${DLT_REPLY}`);
    const whole = splitFrames(stream, { protocol: "any" });
    assert.deepEqual(
      whole.frames.map((frame) => [frame.protocol, toHex(frame.bytes)]),
      [
        ["dlt645", DLT],
        ["dlt698", get],
        ["cjt188", CJT],
        ["dlt698", reply],
        ["dlt645", DLT_REPLY],
      ],
    );
    const splitter = new FrameSplitter({ protocol: "any" });
    const frames = [];
    for (const byte of stream) frames.push(...splitter.push(Uint8Array.of(byte)));
    assert.deepEqual(
      frames.map((frame) => toHex(frame.bytes)),
      whole.frames.map((frame) => toHex(frame.bytes)),
    );
    // "auto" keeps to 645 and 188: the 698.45 frames are garbage there.
    assert.equal(splitFrames(stream, { protocol: "auto" }).frames.length, 3);
  });

  test("any mode bounds a 698.45 frame: a length over the maximum or a wrong HCS is garbage", () => {
    const get = buildGet("202600000042", ["00100200"]);
    const tooLong = splitFrames(get, { protocol: "any", maxFrameLength: get.length - 1 });
    assert.deepEqual([tooLong.frames.length, tooLong.consumed], [0, get.length]);
    const badHeader = Uint8Array.from(get);
    badHeader[5] = badHeader[5]! ^ 0x01; // an address byte: the HCS no longer matches
    const result = splitFrames(Uint8Array.of(...badHeader, ...get), { protocol: "any" });
    assert.deepEqual(
      result.frames.map((frame) => [frame.offset, toHex(frame.bytes)]),
      [[get.length, toHex(get)]],
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

  test("qgdw1376 mode splits a concentrator's frames, bounded by the maximum before the frame is awaited", () => {
    const terminal = { area: "3401", terminal: 258, master: 0, group: false };
    const login = buildLogin(terminal, { seq: 1 });
    const heartbeat = buildHeartbeat(terminal, { seq: 2 });
    const bytes = concatBytes(parseHex("00 68 16"), login, heartbeat);
    const result = splitFrames(bytes, { protocol: "qgdw1376" });
    assert.deepEqual(
      result.frames.map((frame) => [frame.protocol, toHex(frame.bytes)]),
      [
        ["qgdw1376", toHex(login)],
        ["qgdw1376", toHex(heartbeat)],
      ],
    );
    assert.equal(result.consumed, bytes.length);
    // 68 L L L L 68 claiming 16383 bytes of user data: garbage at once when the maximum is lower
    // (only its second 68, which could start a frame, is kept).
    const claim = parseHex("68 FE FF FE FF 68 4B");
    assert.deepEqual(splitFrames(claim, { protocol: "qgdw1376", maxFrameLength: 300 }), {
      frames: [],
      consumed: 5,
      skipped: 5,
    });
    const within = parseHex("68 FE 00 FE 00 68 4B");
    assert.equal(splitFrames(within, { protocol: "qgdw1376", maxFrameLength: 300 }).consumed, 0);
    const splitter = new FrameSplitter({ protocol: "qgdw1376", maxFrameLength: 300 });
    const seen = [...login].flatMap((byte) => splitter.push(Uint8Array.of(byte)));
    assert.deepEqual(
      seen.map((frame) => toHex(frame.bytes)),
      [toHex(login)],
    );
    assert.equal(splitFrames(login, { protocol: "any" }).frames.length, 0, "not a meter frame");
  });
});
