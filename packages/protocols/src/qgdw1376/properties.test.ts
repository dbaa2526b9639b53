import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { ProtocolError } from "../errors.ts";
import { toHex } from "../hex.ts";
import { digits, onlyProtocolErrors, RUNS } from "../test-arbitraries.ts";
import * as qgdw1376 from "./index.ts";

/** Q/GDW 1376.1: build → parse → decode gives back what was built; parsers only throw ProtocolError. */
const address = fc.record({
  area: fc.stringMatching(/^[0-9]{4}$/),
  terminal: fc.integer({ min: 0, max: 0xffff }),
  master: fc.integer({ min: 0, max: 127 }),
  group: fc.boolean(),
});
const frameInput = fc.record({
  control: fc.integer({ min: 0, max: 255 }),
  address,
  afn: fc.integer({ min: 0, max: 255 }),
  seq: fc.integer({ min: 0, max: 255 }),
  body: fc.uint8Array({ maxLength: 80 }),
});
const frame = frameInput.map((input) => qgdw1376.buildFrame(input));
const target = fc.record({
  area: fc.stringMatching(/^[0-9]{4}$/),
  terminal: fc.integer({ min: 1, max: 0xfffe }),
});
const day = fc
  .record({
    year: fc.integer({ min: 2000, max: 2099 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
  })
  .chain((d) =>
    fc.record({
      year: fc.constant(d.year),
      month: fc.constant(d.month),
      day: fc.constant(d.day),
      hour: fc.integer({ min: 0, max: 23 }),
      minute: fc.integer({ min: 0, max: 59 }),
      second: fc.integer({ min: 0, max: 59 }),
    }),
  );

describe("Q/GDW 1376.1 properties", () => {
  test("round trip: any header and body survive build → parse", () => {
    fc.assert(
      fc.property(frameInput, fc.uint8Array({ maxLength: 8 }), (input, junk) => {
        const wire = qgdw1376.buildFrame(input);
        const parsed = qgdw1376.parseFrame(Uint8Array.from([...junk.filter((b) => b !== 0x68), ...wire]));
        assert.deepEqual(
          [parsed.control, parsed.address, parsed.afn, parsed.seq, toHex(parsed.body), parsed.protocolId],
          [input.control, { ...input.address }, input.afn, input.seq, toHex(input.body), 2],
        );
      }),
      RUNS,
    );
  });

  test("random bytes: parser and decoder return or throw ProtocolError, never read outside the input", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const parsed = onlyProtocolErrors(() => qgdw1376.parseFrame(bytes));
        if (parsed instanceof ProtocolError) return;
        assert.ok(
          parsed.start >= 0 &&
            parsed.end <= bytes.length &&
            parsed.end - parsed.start === 16 + parsed.body.length,
        );
        onlyProtocolErrors(() => qgdw1376.decodeFrame(parsed));
      }),
      RUNS,
    );
  });

  test("any frame with valid framing decodes (any direction, AFN, SEQ and data)", () => {
    fc.assert(
      fc.property(frame, (wire) => {
        const decoded = qgdw1376.decodeFrame(qgdw1376.parseFrame(wire));
        for (const unit of decoded.units) assert.match(unit.label, /^(p\d+|all points) F\d+$/);
      }),
      RUNS,
    );
  });

  test("every single-byte corruption from L to CS is detected; in the user data and CS it is a CS error", () => {
    fc.assert(
      fc.property(frame, fc.nat(), fc.integer({ min: 1, max: 255 }), (wire, at, delta) => {
        const position = 1 + (at % (wire.length - 2));
        const mutated = wire.slice();
        mutated[position] = (mutated[position]! + delta) & 0xff;
        const result = onlyProtocolErrors(() => qgdw1376.parseFrame(mutated));
        assert.ok(
          result instanceof ProtocolError,
          `corruption at ${position} went unnoticed: ${toHex(mutated)}`,
        );
        if (position >= 6) assert.equal(result.code, "checksum");
        if (position >= 6) assert.match(result.message, /\bCS\b/);
      }),
      RUNS,
    );
  });

  test("every truncation is reported as truncated", () => {
    fc.assert(
      fc.property(frame, fc.nat(), (wire, cut) => {
        const error = onlyProtocolErrors(() =>
          qgdw1376.parseFrame(wire.subarray(0, 1 + (cut % (wire.length - 1)))),
        );
        assert.ok(error instanceof ProtocolError && error.code === "truncated");
      }),
      RUNS,
    );
  });

  test("round trip: class 1 reads name exactly the pn × Fn asked for", () => {
    fc.assert(
      fc.property(
        target,
        fc.uniqueArray(fc.integer({ min: 1, max: 2040 }), { minLength: 1, maxLength: 6 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 248 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 15 }),
        (to, pns, fns, seq) => {
          const decoded = qgdw1376.decodeDown(
            qgdw1376.parseFrame(qgdw1376.buildReadClass1(to, pns, fns, { seq })),
          );
          const asked = pns.flatMap((pn) => fns.map((fn) => `p${pn} F${fn}`)).sort();
          assert.deepEqual(decoded.units.map((u) => u.label).sort(), asked);
          assert.deepEqual(
            [decoded.seq.seq, decoded.address.terminal, decoded.address.area],
            [seq, to.terminal, to.area],
          );
        },
      ),
      RUNS,
    );
  });

  test("round trip: meter file rows", () => {
    const entry = fc.record({
      index: fc.integer({ min: 1, max: 2040 }),
      pn: fc.integer({ min: 0, max: 2040 }),
      port: fc.integer({ min: 1, max: 31 }),
      baud: fc.constantFrom(null, 600, 1200, 2400, 4800, 7200, 9600, 19200),
      protocol: fc.integer({ min: 0, max: 255 }),
      address: digits(12),
      password: fc.stringMatching(/^[0-9A-F]{12}$/),
      tariffCount: fc.integer({ min: 0, max: 63 }),
      integerDigits: fc.integer({ min: 4, max: 7 }),
      decimalDigits: fc.integer({ min: 1, max: 4 }),
      collector: digits(12),
      userClass: fc.integer({ min: 0, max: 15 }),
      userSubclass: fc.integer({ min: 0, max: 15 }),
    });
    fc.assert(
      fc.property(target, fc.array(entry, { minLength: 1, maxLength: 5 }), (to, meters) => {
        const decoded = qgdw1376.decodeFrame(qgdw1376.parseFrame(qgdw1376.buildWriteMeterFile(to, meters)));
        const value = decoded.units[0]!.value;
        assert.ok(value.type === "meter-file");
        assert.deepEqual(
          value.meters,
          meters.map((m) => ({ ...m, protocolName: qgdw1376.meterProtocolName(m.protocol) })),
        );
      }),
      RUNS,
    );
  });

  test("round trip: forwarded frames, serial settings, timeouts and time tags", () => {
    fc.assert(
      fc.property(
        target,
        fc.record({
          port: fc.integer({ min: 1, max: 31 }),
          frame: fc.uint8Array({ maxLength: 255 }),
          serial: fc.record({
            baud: fc.constantFrom(...qgdw1376.BAUDS),
            parity: fc.constantFrom("none", "even", "odd"),
            dataBits: fc.constantFrom(5, 6, 7, 8),
            stopBits: fc.constantFrom(1, 2),
          }),
          frameTimeoutMs: fc.oneof(
            fc.integer({ min: 0, max: 127 }).map((n) => n * 10),
            fc.integer({ min: 2, max: 127 }).map((n) => n * 1000),
          ),
          byteTimeoutMs: fc.integer({ min: 0, max: 255 }).map((n) => n * 10),
        }),
        day,
        fc.integer({ min: 0, max: 255 }),
        (to, input, time, pfc) => {
          const tp = {
            pfc,
            sentAt: { day: time.day, hour: time.hour, minute: time.minute, second: time.second },
            delayMinutes: 3,
          };
          const decoded = qgdw1376.decodeFrame(qgdw1376.parseFrame(qgdw1376.buildForward(to, input, { tp })));
          const value = decoded.units[0]!.value;
          assert.ok(value.type === "forward-request");
          assert.deepEqual(
            [value.port, value.serial, value.frameTimeoutMs, value.byteTimeoutMs, value.frame],
            [input.port, { ...input.serial }, input.frameTimeoutMs, input.byteTimeoutMs, toHex(input.frame)],
          );
          const pad = (n: number) => String(n).padStart(2, "0");
          assert.deepEqual(decoded.aux.tp, {
            pfc,
            sentAt: `${pad(time.day)} ${pad(time.hour)}:${pad(time.minute)}:${pad(time.second)}`,
            delayMinutes: 3,
          });
        },
      ),
      RUNS,
    );
  });

  test("round trip: clock (A.1 with weekday) and tariff readings", () => {
    fc.assert(
      fc.property(
        day,
        fc.array(fc.bigInt({ min: 0n, max: 9_999_999_999n }), { minLength: 1, maxLength: 8 }),
        (time, readings) => {
          const clock = qgdw1376.decodeA1("t", qgdw1376.encodeA1(time));
          const pad = (n: number) => String(n).padStart(2, "0");
          assert.equal(
            clock.value,
            `${time.year}-${pad(time.month)}-${pad(time.day)} ${pad(time.hour)}:${pad(time.minute)}:${pad(time.second)}`,
          );
          assert.equal(clock.weekday, new Date(Date.UTC(time.year, time.month - 1, time.day)).getUTCDay());
          const text = readings.map((r) => `${r / 10_000n}.${String(r % 10_000n).padStart(4, "0")}`);
          const reply = qgdw1376.buildResponse({ area: "0000", terminal: 1, master: 0, group: false }, 0x0c, [
            { pn: 1, fn: 129, data: qgdw1376.encodeTariffReadings(time, text) },
          ]);
          const value = qgdw1376.decodeFrame(qgdw1376.parseFrame(reply)).units[0]!.value;
          assert.ok(value.type === "readings");
          assert.deepEqual(
            value.fields.map((f) => (f.kind === "number" ? f.scaled : null)),
            readings,
          );
        },
      ),
      RUNS,
    );
  });
});
