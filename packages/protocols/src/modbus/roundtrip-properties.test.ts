import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { ProtocolError } from "../errors.ts";
import { onlyProtocolErrors, RUNS } from "../test-arbitraries.ts";
import { decodeAdu, isReplyTo } from "./decode.ts";
import { buildRtuFrame, buildTcpFrame, parseRtuFrame, parseTcpFrame } from "./frame.ts";
import {
  decodeReply,
  decodeRequest,
  encodeReply,
  encodeRequest,
  type ModbusReply,
  type ModbusRequest,
  readByteCount,
  writeAcknowledgement,
} from "./pdu.ts";
import { decodeRegisterValue, encodeRegisterValue, type RegisterFormat } from "./registers.ts";

const word = fc.integer({ min: 0, max: 0xffff });
const range = (max: number) =>
  fc
    .record({ quantity: fc.integer({ min: 1, max }), start: fc.integer({ min: 0, max: 0xffff }) })
    .map(({ quantity, start }) => ({ quantity, address: Math.min(start, 0x10000 - quantity) }));

export const modbusRequest: fc.Arbitrary<ModbusRequest> = fc.oneof(
  fc
    .tuple(fc.constantFrom(1, 2, 3, 4), fc.boolean())
    .chain(([functionCode]) =>
      range(functionCode <= 2 ? 2000 : 125).map(
        ({ address, quantity }) => ({ kind: "read", functionCode, address, quantity }) as ModbusRequest,
      ),
    ),
  fc
    .tuple(word, fc.boolean())
    .map(
      ([address, value]): ModbusRequest => ({ kind: "write-single-coil", functionCode: 5, address, value }),
    ),
  fc.tuple(word, word).map(
    ([address, value]): ModbusRequest => ({
      kind: "write-single-register",
      functionCode: 6,
      address,
      value,
    }),
  ),
  range(1968).chain(({ address, quantity }) =>
    fc
      .array(fc.boolean(), { minLength: quantity, maxLength: quantity })
      .map(
        (values) => ({ kind: "write-multiple-coils", functionCode: 0x0f, address, values }) as ModbusRequest,
      ),
  ),
  range(123).chain(({ address, quantity }) =>
    fc
      .array(word, { minLength: quantity, maxLength: quantity })
      .map(
        (values) =>
          ({ kind: "write-multiple-registers", functionCode: 0x10, address, values }) as ModbusRequest,
      ),
  ),
);

/** The normal reply a meter gives to `request`, with random data for reads. */
const replyTo = (request: ModbusRequest): fc.Arbitrary<ModbusReply> => {
  if (request.kind !== "read") return fc.constant(writeAcknowledgement(request));
  const count = readByteCount(request.functionCode, request.quantity);
  if (request.functionCode <= 2)
    return fc.array(fc.boolean(), { minLength: count * 8, maxLength: count * 8 }).map((bits) => ({
      kind: "read-bits",
      functionCode: request.functionCode as 1 | 2,
      byteCount: count,
      bits,
    }));
  return fc.array(word, { minLength: count / 2, maxLength: count / 2 }).map((registers) => ({
    kind: "read-registers",
    functionCode: request.functionCode as 3 | 4,
    byteCount: count,
    registers,
  }));
};

const slave = fc.integer({ min: 1, max: 247 });

describe("Modbus round trips (fast-check)", () => {
  test("request PDU → bytes → request", () => {
    fc.assert(
      fc.property(modbusRequest, (request) => {
        assert.deepEqual(decodeRequest(encodeRequest(request)), request);
      }),
      RUNS,
    );
  });

  test("reply PDU → bytes → reply, and the reply matches its request over RTU and TCP", () => {
    const pair = modbusRequest.chain((request) => fc.tuple(fc.constant(request), replyTo(request)));
    fc.assert(
      fc.property(pair, slave, word, ([request, reply], unit, transactionId) => {
        assert.deepEqual(decodeReply(encodeReply(reply)), reply);
        const asked = parseRtuFrame(buildRtuFrame(unit, encodeRequest(request)));
        const answer = parseRtuFrame(buildRtuFrame(unit, encodeReply(reply)));
        assert.ok(isReplyTo(answer, asked));
        assert.equal(isReplyTo({ ...answer, unit: unit === 1 ? 2 : 1 }, asked), false);
        const tcpAsked = parseTcpFrame(buildTcpFrame({ transactionId, unit }, encodeRequest(request)));
        const tcpAnswer = parseTcpFrame(buildTcpFrame({ transactionId, unit }, encodeReply(reply)));
        assert.ok(isReplyTo(tcpAnswer, tcpAsked));
        assert.equal(
          isReplyTo({ ...tcpAnswer, transactionId: (transactionId + 1) & 0xffff }, tcpAsked),
          false,
        );
        assert.equal(decodeAdu(answer, "reply").direction, "reply");
      }),
      RUNS,
    );
  });

  test("an exception to the request's function matches; one to another function does not", () => {
    fc.assert(
      fc.property(modbusRequest, slave, fc.integer({ min: 1, max: 11 }), (request, unit, code) => {
        const asked = parseRtuFrame(buildRtuFrame(unit, encodeRequest(request)));
        const own = parseRtuFrame(buildRtuFrame(unit, Uint8Array.of(request.functionCode | 0x80, code)));
        const other = parseRtuFrame(
          buildRtuFrame(unit, Uint8Array.of(((request.functionCode % 6) + 1) | 0x80, code)),
        );
        assert.ok(isReplyTo(own, asked));
        assert.equal(isReplyTo(other, asked), request.functionCode === (request.functionCode % 6) + 1);
      }),
      RUNS,
    );
  });

  test("a read reply whose byte count disagrees with the quantity asked does not match", () => {
    fc.assert(
      fc.property(slave, fc.integer({ min: 1, max: 124 }), (unit, quantity) => {
        const asked = parseRtuFrame(
          buildRtuFrame(unit, encodeRequest({ kind: "read", functionCode: 3, address: 0, quantity })),
        );
        const reply = encodeReply({
          kind: "read-registers",
          functionCode: 3,
          byteCount: 0,
          registers: new Array(quantity + 1).fill(0),
        });
        assert.equal(isReplyTo(parseRtuFrame(buildRtuFrame(unit, reply)), asked), false);
      }),
      RUNS,
    );
  });

  test("any single corrupted byte of an RTU frame is caught by the CRC or the layout", () => {
    fc.assert(
      fc.property(
        modbusRequest,
        slave,
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (request, unit, at, flip) => {
          const frame = buildRtuFrame(unit, encodeRequest(request));
          const index = at % frame.length;
          frame[index] = frame[index]! ^ flip;
          const result = onlyProtocolErrors(() => parseRtuFrame(frame));
          assert.ok(result instanceof ProtocolError && result.code === "checksum");
        },
      ),
      RUNS,
    );
  });

  test("random bytes never throw anything but a ProtocolError", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        onlyProtocolErrors(() => decodeAdu(parseRtuFrame(bytes)));
        onlyProtocolErrors(() => decodeAdu(parseTcpFrame(bytes)));
        onlyProtocolErrors(() => decodeRequest(bytes));
        onlyProtocolErrors(() => decodeReply(bytes));
      }),
      RUNS,
    );
  });
});

describe("register values (fast-check)", () => {
  const orders = fc.record({
    byteOrder: fc.constantFrom("big" as const, "little" as const),
    wordOrder: fc.constantFrom("big" as const, "little" as const),
  });

  test("integers at any power-of-ten scale come back as the same exact decimal", () => {
    const input = fc
      .record({
        type: fc.constantFrom("int16" as const, "uint16" as const, "int32" as const, "uint32" as const),
        decimals: fc.integer({ min: 0, max: 4 }),
        orders,
        fraction: fc.double({ min: 0, max: 1, noNaN: true }),
      })
      .map(({ type, decimals, orders, fraction }) => {
        const bits = type.endsWith("16") ? 16 : 32;
        const signed = type.startsWith("int");
        const span = 2 ** bits - 1;
        const raw = BigInt(Math.floor(fraction * span) - (signed ? 2 ** (bits - 1) : 0));
        const format: RegisterFormat = {
          type,
          scale: decimals === 0 ? "1" : `0.${"0".repeat(decimals - 1)}1`,
          unit: "kWh",
          ...orders,
        };
        return { format, raw };
      });
    fc.assert(
      fc.property(input, ({ format, raw }) => {
        const decimals = format.scale === "1" ? 0 : format.scale.length - 2;
        const negative = raw < 0n;
        const digits = (negative ? -raw : raw).toString().padStart(decimals + 1, "0");
        const text = `${negative ? "-" : ""}${digits.slice(0, digits.length - decimals)}${decimals ? `.${digits.slice(-decimals)}` : ""}`;
        const field = decodeRegisterValue("x", format, encodeRegisterValue(format, text));
        assert.equal(field.value, text.replace(/^-(0\.?0*)$/, "$1"));
        assert.equal(field.scaled, raw);
      }),
      RUNS,
    );
  });

  test("float32 and float64 values come back as the same number, written as the shortest decimal", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("float32" as const, "float64" as const),
        orders,
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        (type, orders, value) => {
          const format: RegisterFormat = { type, scale: "1", unit: "kWh", ...orders };
          const stored = type === "float32" ? Math.fround(value) : value;
          // The encoder takes plain decimals; values JavaScript prints with an exponent are skipped.
          const text = String(stored);
          if (!Number.isFinite(stored) || text.includes("e")) return;
          const field = decodeRegisterValue("x", format, encodeRegisterValue(format, text));
          assert.equal(field.status, "ok");
          const back = Number(field.value);
          assert.equal(type === "float32" ? Math.fround(back) : back, stored === 0 ? 0 : stored);
        },
      ),
      RUNS,
    );
  });
});
