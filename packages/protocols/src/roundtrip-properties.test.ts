import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import * as cjt188 from "./cjt188/index.ts";
import { formatDigits, formatScaled, scaledFromDigits } from "./decimal.ts";
import * as dlt645 from "./dlt645/index.ts";
import { cjtAddress, dltAddress, READ_DIS, RUNS } from "./test-arbitraries.ts";
import { decodeField, encodeField } from "./values.ts";

/** build → parse → decode gives back exactly what was built. */
describe("round-trip properties", () => {
  test("round trip: read replies with random values decode to the same decimals", () => {
    const energy = fc.bigInt({ min: 0n, max: 99_999_999n });
    fc.assert(
      fc.property(
        dltAddress,
        fc.array(energy, { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: 4 }),
        (address, values, preamble) => {
          const wire = dlt645.buildReadReply(address, "0001FF00", values, { preamble });
          const decoded = dlt645.decodeReply(dlt645.parseFrame(wire));
          assert.ok(decoded.message.kind === "read-reply");
          assert.equal(decoded.address, address);
          assert.deepEqual(
            decoded.message.fields.map((field) => (field.kind === "number" ? field.scaled : null)),
            values,
          );
        },
      ),
      RUNS,
    );
  });

  test("round trip: signed BCD numbers of every width", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 4 }),
        fc.boolean(),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        (bytes, decimals, signed, raw) => {
          const limit = signed ? 8n * 10n ** BigInt(bytes * 2 - 1) : 10n ** BigInt(bytes * 2);
          const magnitude = raw % limit;
          const value = signed && raw % 2n === 1n ? -magnitude : magnitude;
          const format = { kind: "number", bytes, decimals, signed, unit: "kWh" } as const;
          const field = decodeField("x", format, encodeField(format, value));
          assert.ok(field.kind === "number");
          assert.equal(field.scaled, value === 0n ? 0n : value);
        },
      ),
      RUNS,
    );
  });

  test("decimal text from BCD digits equals formatting the scaled integer", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9]{0,20}$/),
        fc.integer({ min: 0, max: 6 }),
        fc.boolean(),
        (digits, scale, negative) => {
          assert.equal(
            formatDigits(digits, scale, negative),
            formatScaled(scaledFromDigits(digits, negative), scale),
          );
        },
      ),
      RUNS,
    );
  });

  test("round trip: requests the gateway sends are what the simulated meter reads", () => {
    fc.assert(
      fc.property(
        dltAddress,
        fc.constantFrom(...READ_DIS),
        cjtAddress,
        fc.integer({ min: 0, max: 255 }),
        fc.constantFrom("big-endian", "little-endian"),
        (address, di, water, ser, diOrder) => {
          const read = dlt645.decodeRequest(dlt645.parseFrame(dlt645.buildRead(address, di)));
          assert.ok(
            read.message.kind === "read-request" && read.message.di === di && read.address === address,
          );
          const valve = cjt188.decodeRequest(
            cjt188.parseFrame(cjt188.buildValveControl(water, "close", { ser, diOrder })),
          );
          assert.ok(valve.message.kind === "valve-control-request");
          assert.deepEqual(
            [valve.message.command, valve.message.ser, valve.message.diOrder, valve.address],
            ["close", ser, diOrder, water],
          );
        },
      ),
      RUNS,
    );
  });
});
