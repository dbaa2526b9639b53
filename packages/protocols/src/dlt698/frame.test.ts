import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ProtocolError } from "../errors.ts";
import { parseHex, toHex } from "../hex.ts";
import * as dlt698 from "./index.ts";

const GET_ADDRESS = "68 17 00 43 05 00 00 00 00 00 00 00 72 79 05 01 00 40 01 02 00 00 ED 03 16";
const refuses = (bytes: Uint8Array, code: string, pattern?: RegExp) =>
  assert.throws(
    () => dlt698.parseFrame(bytes),
    (e) => e instanceof ProtocolError && e.code === code && (!pattern || pattern.test(e.message)),
  );

describe("DL/T 698.45 link layer", () => {
  test("CRC-16/X.25 gives the standard check value 0x906E for '123456789'", () => {
    assert.equal(dlt698.crc16x25(new TextEncoder().encode("123456789")), 0x906e);
    assert.equal(dlt698.crc16x25(new Uint8Array(0)), 0x0000);
  });

  test("server address: type, logical address, length and digits in both directions", () => {
    for (const [sa, wire] of [
      [{ type: "single", logical: 0, address: "123456789012" }, "05 12 90 78 56 34 12"],
      [{ type: "wildcard", logical: 0, address: "AAAAAAAAAAAA" }, "45 AA AA AA AA AA AA"],
      [{ type: "group", logical: 1, address: "0001" }, "91 01 00"],
      [{ type: "broadcast", logical: 0, address: "AA" }, "C0 AA"],
      [
        { type: "single", logical: 3, address: "00112233445566778899AABBCCDDEEFF" },
        "3F FF EE DD CC BB AA 99 88 77 66 55 44 33 22 11 00",
      ],
    ] as const) {
      assert.equal(toHex(dlt698.encodeServerAddress(sa)), wire);
      assert.deepEqual(dlt698.decodeServerAddress(parseHex(wire), 0), sa);
    }
    for (const bad of ["", "123", "12345678901234567890123456789012AB", "12G4"])
      assert.throws(() => dlt698.encodeServerAddress(bad), /server address/);
  });

  test("control byte: direction, PRM, split, scrambling and function", () => {
    assert.deepEqual(dlt698.decodeControl(0xeb), {
      raw: 0xeb,
      direction: "server->client",
      initiator: "client",
      split: true,
      scrambled: true,
      function: 3,
      functionName: "user-data",
    });
    assert.equal(
      dlt698.encodeControl({ direction: "client->server", initiator: "server", function: 1 }),
      0x01,
    );
    assert.equal(dlt698.decodeControl(0x05).functionName, "reserved");
  });

  test("FE preamble and junk before the frame are skipped; several frames in one read", () => {
    const one = parseHex(GET_ADDRESS);
    const stream = Uint8Array.from([0xfe, 0xfe, 0x68, 0x00, ...one, 0x13, ...one]);
    const frames = dlt698.parseFrames(stream);
    assert.deepEqual(
      frames.map((f) => [f.start, f.end]),
      [
        [4, 29],
        [30, 55],
      ],
    );
  });

  test("scrambled frames carry the APDU +0x33 and decode to the same APDU", () => {
    const wire = dlt698.buildGet("000000000001", ["40010200"], { scrambled: true });
    assert.equal(wire[3], 0x4b);
    assert.equal(wire[14], 0x05 + 0x33);
    const frame = dlt698.parseFrame(wire);
    assert.deepEqual(dlt698.decodeApdu(frame.apdu), {
      service: "get-request-normal",
      oad: "40010200",
      piid: 0,
      timeTag: null,
    });
  });

  test("a frame longer than the maximum is refused from its L field, before its bytes arrive", () => {
    const header = parseHex("68 FF 3F 43 05 00 00 00 00 00 00 00");
    refuses(header, "truncated"); // 16383 bytes allowed by default: wait for more
    assert.throws(
      () => dlt698.parseFrame(header, { maxFrameLength: 512 }),
      (e) => e instanceof ProtocolError && e.code === "bad-length",
    );
    refuses(parseHex("68 10 40 43 05 00 00 00 00 00 00 00"), "bad-length"); // kilobyte unit: 16 KB
    refuses(parseHex("68 17 80 43 05 00 00 00 00 00 00 00"), "bad-length"); // reserved bit 15
    refuses(parseHex("68 08 00 43 05 00 00 00 00 00 00 00 72 79"), "bad-length"); // shorter than its own header
    assert.throws(
      () => dlt698.buildFrame({ control: 0x43, server: "01", apdu: new Uint8Array(20_000) }),
      /exceeds the maximum/,
    );
  });

  test("HCS is checked before the rest of the frame arrives; FCS and the end byte after", () => {
    const good = parseHex(GET_ADDRESS);
    const hcsBroken = good.slice(0, 16);
    hcsBroken[13] = 0;
    refuses(hcsBroken, "checksum", /HCS/);
    refuses(good.slice(0, 20), "truncated");
    const fcsBroken = good.slice();
    fcsBroken[22] = fcsBroken[22]! ^ 1;
    refuses(fcsBroken, "checksum", /FCS/);
    const endBroken = good.slice();
    endBroken[24] = 0x17;
    refuses(endBroken, "bad-end");
    refuses(parseHex("FE FE 00"), "no-start");
  });

  test("split frames: blocks in order reassemble; each block is acknowledged; gaps are refused", () => {
    const apdu = dlt698.encodeApdu({
      service: "get-response-normal",
      result: { oad: "40010200", result: { data: { type: "octet-string", hex: "00".repeat(200) } } },
      piid: 1,
      followReport: null,
      timeTag: null,
    });
    const frames = dlt698.buildSplitFrames({ control: 0xc3, server: "000000000001", apdu, blockSize: 64 });
    assert.equal(frames.length, 4);
    const parsed = frames.map((f) => dlt698.parseFrame(f));
    assert.deepEqual(
      parsed.map((f) => [f.split?.sequence, f.split?.kind, (f.control & 0x20) !== 0]),
      [
        [0, "first", true],
        [1, "middle", true],
        [2, "middle", true],
        [3, "last", true],
      ],
    );
    const collector = new dlt698.SplitReassembler();
    assert.deepEqual(collector.push(parsed[0]!), { status: "need-more", ackSequence: 0 });
    assert.deepEqual(collector.push(parsed[1]!), { status: "need-more", ackSequence: 1 });
    assert.deepEqual(collector.push(parsed[2]!), { status: "need-more", ackSequence: 2 });
    const done = collector.push(parsed[3]!);
    assert.ok(done.status === "complete");
    assert.deepEqual(done.apdu, apdu);
    assert.equal(dlt698.decodeFrame(parsed[1]!).apdu, null);

    const ack = dlt698.parseFrame(
      dlt698.buildSplitAck({ control: 0x43, server: "000000000001", sequence: 2 }),
    );
    assert.deepEqual([ack.split, ack.apdu.length], [{ sequence: 2, kind: "ack" }, 0]);
    assert.deepEqual(collector.push(ack), { status: "ack", sequence: 2 });

    collector.push(parsed[0]!);
    assert.throws(() => collector.push(parsed[2]!), /block 2 \(middle\) arrived, block 1 was expected/);
    assert.throws(() => collector.push(parsed[3]!), /was expected/); // starts over at the next "first"
  });

  test("a split APDU larger than the collector allows is refused", () => {
    const frames = dlt698.buildSplitFrames({
      control: 0xc3,
      server: "01",
      apdu: new Uint8Array(300),
      blockSize: 100,
    });
    const collector = new dlt698.SplitReassembler(250);
    collector.push(dlt698.parseFrame(frames[0]!));
    collector.push(dlt698.parseFrame(frames[1]!));
    assert.throws(
      () => collector.push(dlt698.parseFrame(frames[2]!)),
      (e) => e instanceof ProtocolError && e.code === "bad-length",
    );
  });
});

describe("DL/T 698.45 on a byte stream", () => {
  test("the stream splitter finds 698 frames across chunks and skips heartbeat junk", async () => {
    const { FrameSplitter } = await import("../splitter.ts");
    const a = dlt698.buildGet("202600000042", ["00100200"]);
    const b = dlt698.buildTrip("202600000042");
    const stream = Uint8Array.from([0xfe, 0xfe, ...a, 0x00, 0x68, 0x01, ...b]);
    const splitter = new FrameSplitter({ protocol: "dlt698", maxFrameLength: 512 });
    const frames = [
      ...splitter.push(stream.subarray(0, 10)),
      ...splitter.push(stream.subarray(10, 40)),
      ...splitter.push(stream.subarray(40)),
    ];
    assert.deepEqual(
      frames.map((f) => [f.protocol, f.offset, toHex(f.bytes)]),
      [
        ["dlt698", 2, toHex(a)],
        ["dlt698", 2 + a.length + 3, toHex(b)],
      ],
    );
    assert.equal(splitter.pending, 0);
  });
});
