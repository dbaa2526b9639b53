import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { parseHex, toHex } from "../hex.ts";
import { RUNS } from "../test-arbitraries.ts";
import { buildRtuFrame, buildTcpFrame } from "./frame.ts";
import { encodeReply, encodeRequest, readHoldingRegisters, writeSingleRegister } from "./pdu.ts";
import { findRtuReply, pendingFor, RtuReplySplitter, splitTcpFrames, TcpFrameSplitter } from "./split.ts";

const REQUEST = parseHex("11 03 00 6B 00 03 76 87");
const REPLY = parseHex("11 03 06 AE 41 56 52 43 40 49 AD");

describe("RTU reply splitter (no length field: the pending request says what to wait for)", () => {
  test("pendingFor reads slave, function and byte count from the request", () => {
    assert.deepEqual(pendingFor(REQUEST), { slave: 0x11, functionCode: 3, byteCount: 6 });
    const write = buildRtuFrame(5, encodeRequest(writeSingleRegister(0x10, 7)));
    assert.deepEqual(pendingFor(write), { slave: 5, functionCode: 6 });
  });

  test("garbage before the reply is skipped; a reply split over chunks comes out once, whole", () => {
    const splitter = new RtuReplySplitter();
    splitter.expect(REQUEST);
    assert.equal(splitter.push(parseHex("00 FF 11 04 11")), undefined); // noise, including a false slave byte
    assert.equal(splitter.push(REPLY.subarray(0, 4)), undefined);
    const reply = splitter.push(REPLY.subarray(4));
    assert.equal(toHex(reply!), toHex(REPLY));
    assert.equal(splitter.skipped, 5);
    assert.equal(splitter.awaiting, undefined);
    assert.equal(splitter.push(REPLY), undefined, "nothing pending: a second copy is garbage");
  });

  test("an exception reply (5 bytes) settles the request too", () => {
    const exception = buildRtuFrame(0x11, Uint8Array.of(0x83, 0x02));
    const found = findRtuReply(exception, pendingFor(REQUEST));
    assert.equal(toHex(found.reply!.bytes), toHex(exception));
  });

  test("a reply with the wrong byte count, slave or CRC is garbage, not a reply", () => {
    const pending = pendingFor(REQUEST);
    const wrongCount = buildRtuFrame(
      0x11,
      encodeReply({ kind: "read-registers", functionCode: 3, byteCount: 4, registers: [1, 2] }),
    );
    const wrongSlave = buildRtuFrame(0x12, REPLY.subarray(1, REPLY.length - 2));
    const badCrc = Uint8Array.from(REPLY);
    badCrc[badCrc.length - 1] = badCrc[badCrc.length - 1]! ^ 1;
    for (const bytes of [wrongCount, wrongSlave, badCrc]) {
      const found = findRtuReply(bytes, pending);
      assert.equal(found.reply, undefined, toHex(bytes));
      assert.ok(found.skipped > 0, "the first byte cannot start a reply and is dropped");
    }
    const found = findRtuReply(new Uint8Array([...badCrc, ...REPLY]), pending);
    assert.equal(found.reply?.offset, badCrc.length);
  });

  test("any noise before a reply: the reply is found and the held tail stays under 256 bytes", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.integer({ min: 1, max: 125 }),
        fc.integer({ min: 1, max: 40 }),
        (noise, quantity, chunk) => {
          const request = buildRtuFrame(7, encodeRequest(readHoldingRegisters(0, quantity)));
          const registers = Array.from({ length: quantity }, (_, i) => (i * 257) & 0xffff);
          const reply = buildRtuFrame(
            7,
            encodeReply({ kind: "read-registers", functionCode: 3, byteCount: quantity * 2, registers }),
          );
          const splitter = new RtuReplySplitter();
          splitter.expect(request);
          const stream = new Uint8Array([...noise, ...reply]);
          let got: Uint8Array | undefined;
          for (let at = 0; at < stream.length && !got; at += chunk) {
            got = splitter.push(stream.subarray(at, at + chunk));
            assert.ok(splitter.pending < 256);
          }
          // Noise may itself end in a valid reply by chance (CRC and all); then that is what a
          // bus would deliver. Otherwise the real reply comes out.
          assert.ok(got);
          if (toHex(got) !== toHex(reply)) assert.equal(pendingFor(request).byteCount, got[2]);
        },
      ),
      RUNS,
    );
  });
});

describe("TCP splitter (MBAP length field)", () => {
  test("frames back to back and split across chunks; a bad header is skipped byte by byte", () => {
    const first = buildTcpFrame({ transactionId: 1, unit: 1 }, encodeRequest(readHoldingRegisters(0, 2)));
    const second = buildTcpFrame({ transactionId: 2, unit: 1 }, encodeRequest(readHoldingRegisters(8, 2)));
    const result = splitTcpFrames(new Uint8Array([0x01, 0x02, 0x03, 0x04, 0x05, ...first, ...second]));
    assert.deepEqual(
      result.frames.map((frame) => frame.offset),
      [5, 5 + first.length],
    );
    assert.equal(result.skipped, 5);
    const splitter = new TcpFrameSplitter();
    assert.deepEqual(splitter.push(first.subarray(0, 5)), []);
    assert.equal(splitter.pending, 5);
    assert.deepEqual(
      splitter.push(new Uint8Array([...first.subarray(5), ...second])).map((f) => toHex(f)),
      [toHex(first), toHex(second)],
    );
  });
});
