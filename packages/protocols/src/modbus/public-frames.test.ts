import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ProtocolError } from "../errors.ts";
import { parseHex, toHex } from "../hex.ts";
import { decodeAdu } from "./decode.ts";
import { buildRtuFrame, buildTcpFrame, parseRtuFrame, parseTcpFrame } from "./frame.ts";
import { decodeReply, decodeRequest, encodeReply, encodeRequest } from "./pdu.ts";

// Modbus Application Protocol Specification V1.1b3 (modbus.org, 2012), §6: one request and
// one reply PDU per function; §7: the exception example.
const SPEC = "Modbus Application Protocol Specification V1.1b3";
const PDU_EXAMPLES = [
  { clause: "§6.1 read coils", request: "01 00 13 00 13", reply: "01 03 CD 6B 05" },
  { clause: "§6.2 read discrete inputs", request: "02 00 C4 00 16", reply: "02 03 AC DB 35" },
  { clause: "§6.3 read holding registers", request: "03 00 6B 00 03", reply: "03 06 02 2B 00 00 00 64" },
  { clause: "§6.4 read input registers", request: "04 00 08 00 01", reply: "04 02 00 0A" },
  { clause: "§6.5 write single coil", request: "05 00 AC FF 00", reply: "05 00 AC FF 00" },
  { clause: "§6.6 write single register", request: "06 00 01 00 03", reply: "06 00 01 00 03" },
  { clause: "§6.11 write multiple coils", request: "0F 00 13 00 0A 02 CD 01", reply: "0F 00 13 00 0A" },
  {
    clause: "§6.12 write multiple registers",
    request: "10 00 01 00 02 04 00 0A 01 02",
    reply: "10 00 01 00 02",
  },
];

describe(`PDU examples of the ${SPEC}`, () => {
  for (const example of PDU_EXAMPLES) {
    test(`${example.clause}: decoded and rebuilt byte for byte`, () => {
      const request = decodeRequest(parseHex(example.request));
      const reply = decodeReply(parseHex(example.reply));
      assert.equal(toHex(encodeRequest(request)), example.request);
      assert.equal(toHex(encodeReply(reply)), example.reply);
    });
  }

  test("§6.1: coils 20..38 read as CD 6B 05 are 1011 0011 / 1101 0110 / 101 (LSB first)", () => {
    const reply = decodeReply(parseHex("01 03 CD 6B 05"));
    assert.ok(reply.kind === "read-bits");
    const bits = reply.bits.slice(0, 19).map((bit) => (bit ? 1 : 0));
    assert.deepEqual(bits, [1, 0, 1, 1, 0, 0, 1, 1, 1, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1]);
  });

  test("§6.3: registers 108..110 hold 555, 0 and 100", () => {
    const reply = decodeReply(parseHex("03 06 02 2B 00 00 00 64"));
    assert.deepEqual(reply, {
      kind: "read-registers",
      functionCode: 3,
      byteCount: 6,
      registers: [555, 0, 100],
    });
  });

  test("§6.11: ten coils from 20 written as CD 01", () => {
    const request = decodeRequest(parseHex("0F 00 13 00 0A 02 CD 01"));
    assert.ok(request.kind === "write-multiple-coils");
    assert.deepEqual(
      request.values.map((bit) => (bit ? 1 : 0)),
      [1, 0, 1, 1, 0, 0, 1, 1, 1, 0],
    );
  });

  test("§7: read coils at 1185 answered by exception 02, illegal data address", () => {
    assert.deepEqual(decodeReply(parseHex("81 02")), {
      kind: "exception",
      functionCode: 1,
      exceptionCode: 2,
      exceptionName: "illegal data address",
    });
    assert.equal(toHex(encodeRequest(decodeRequest(parseHex("01 04 A1 00 01")))), "01 04 A1 00 01");
  });

  test("the exception codes 1..4 and the others are named", () => {
    const names = [1, 2, 3, 4, 5, 6, 8, 10, 11, 0x42].map((code) => {
      const reply = decodeReply(Uint8Array.of(0x83, code));
      return reply.kind === "exception" ? reply.exceptionName : "";
    });
    assert.deepEqual(names, [
      "illegal function",
      "illegal data address",
      "illegal data value",
      "server device failure",
      "acknowledge",
      "server device busy",
      "memory parity error",
      "gateway path unavailable",
      "gateway target device failed to respond",
      "exception 0x42",
    ]);
  });
});

describe("RTU ADU (Modbus over Serial Line V1.02 §2.5.1, CRC §6.2.2)", () => {
  test("read holding registers 01 03 00 6B 00 03 carries CRC 74 17 (low byte first)", () => {
    const frame = buildRtuFrame(1, parseHex("03 00 6B 00 03"));
    assert.equal(toHex(frame), "01 03 00 6B 00 03 74 17");
    const adu = parseRtuFrame(frame);
    assert.equal(adu.unit, 1);
    assert.equal(toHex(adu.pdu), "03 00 6B 00 03");
  });

  // Simply Modbus, "Modbus RTU" pages (simplymodbus.ca/FC03.htm): slave 17 (0x11) asks for
  // registers 40108..40110 and gets 0xAE41, 0x5652, 0x4340.
  test("slave 17 FC03 request and reply from simplymodbus.ca", () => {
    assert.equal(toHex(buildRtuFrame(0x11, parseHex("03 00 6B 00 03"))), "11 03 00 6B 00 03 76 87");
    const decoded = decodeAdu(parseRtuFrame(parseHex("11 03 06 AE 41 56 52 43 40 49 AD")));
    assert.equal(decoded.direction, "reply");
    assert.deepEqual(decoded.message, {
      kind: "read-registers",
      functionCode: 3,
      byteCount: 6,
      registers: [0xae41, 0x5652, 0x4340],
    });
  });

  test("a wrong CRC is refused with a ProtocolError that says the CRC is wrong", () => {
    assert.throws(
      () => parseRtuFrame(parseHex("01 03 00 6B 00 03 74 18")),
      (error: unknown) =>
        error instanceof ProtocolError &&
        error.code === "checksum" &&
        /CRC is wrong/.test(error.message) &&
        /carries 74 18, its bytes give 74 17/.test(error.message),
    );
  });

  test("frames are bounded: under 4 bytes is truncated, over 256 is refused before any CRC work", () => {
    assert.throws(() => parseRtuFrame(parseHex("01 03 74")), { code: "truncated" });
    assert.throws(() => parseRtuFrame(new Uint8Array(257)), { code: "bad-length" });
  });
});

describe("TCP ADU: MBAP header (Modbus Messaging on TCP/IP Implementation Guide V1.0b §3.1.3)", () => {
  // Simply Modbus, "Modbus TCP" page (simplymodbus.ca/TCP.htm): transaction 1, unit 17.
  const REQUEST = "00 01 00 00 00 06 11 03 00 6B 00 03";
  const REPLY = "00 01 00 00 00 09 11 03 06 02 2B 00 00 00 64";

  test("the FC03 request and reply from simplymodbus.ca", () => {
    assert.equal(toHex(buildTcpFrame({ transactionId: 1, unit: 0x11 }, parseHex("03 00 6B 00 03"))), REQUEST);
    const reply = decodeAdu(parseTcpFrame(parseHex(REPLY)));
    assert.equal(reply.transactionId, 1);
    assert.equal(reply.unit, 17);
    assert.equal(reply.direction, "reply");
    assert.ok(reply.message.kind === "read-registers");
    assert.deepEqual(reply.message.registers, [555, 0, 100]);
  });

  test("a protocol id other than 0, an impossible length or a short input is refused", () => {
    assert.throws(() => parseTcpFrame(parseHex("00 01 00 01 00 06 11 03 00 6B 00 03")), {
      code: "bad-header",
    });
    assert.throws(() => parseTcpFrame(parseHex("00 01 00 00 01 00 11 03")), { code: "bad-length" });
    assert.throws(() => parseTcpFrame(parseHex("00 01 00 00 00 06 11 03 00")), { code: "truncated" });
  });
});

describe("PDU layout checks", () => {
  test("quantities outside the spec's limits are refused both ways", () => {
    assert.throws(() => decodeRequest(parseHex("03 00 00 00 7E")), { code: "bad-pdu" });
    assert.throws(() => decodeRequest(parseHex("01 00 00 07 D1")), { code: "bad-pdu" });
    assert.throws(() => decodeRequest(parseHex("03 FF FF 00 02")), { code: "bad-pdu" });
    assert.throws(() => encodeRequest({ kind: "read", functionCode: 3, address: 0, quantity: 126 }), {
      code: "bad-argument",
    });
  });

  test("byte counts must agree with the data and the quantity", () => {
    assert.throws(() => decodeReply(parseHex("03 05 02 2B 00 00 00")), { code: "bad-pdu" });
    assert.throws(() => decodeReply(parseHex("03 06 02 2B 00 00 00")), { code: "bad-pdu" });
    assert.throws(() => decodeRequest(parseHex("10 00 01 00 02 03 00 0A 01")), { code: "bad-pdu" });
    assert.throws(() => decodeRequest(parseHex("05 00 AC 12 34")), { code: "bad-pdu" });
  });
});

describe("direction when nobody says", () => {
  test("§6.1's coil reply 01 03 CD 6B 05 fits the request layout too, but asks for 27397 coils: a reply", () => {
    const decoded = decodeAdu(parseRtuFrame(buildRtuFrame(1, parseHex("01 03 CD 6B 05"))));
    assert.ok(decoded.direction === "reply" && decoded.message.kind === "read-bits");
    assert.equal(decoded.message.byteCount, 3);
    assert.deepEqual(decoded.warnings, []);
  });

  test("01 03 00 00 10 is both a read of 16 coils from 0x0300 and a 3-byte reply: auto warns", () => {
    const adu = parseRtuFrame(buildRtuFrame(1, parseHex("01 03 00 00 10")));
    const guessed = decodeAdu(adu);
    assert.ok(guessed.direction === "request" && guessed.message.kind === "read");
    assert.deepEqual([guessed.message.address, guessed.message.quantity], [0x0300, 16]);
    assert.match(guessed.warnings[0] ?? "", /also a valid reply/);
    assert.equal(decodeAdu(adu, "reply").message.kind, "read-bits");
  });
});
