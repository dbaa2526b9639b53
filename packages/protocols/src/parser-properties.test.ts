import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import * as cjt188 from "./cjt188/index.ts";
import { runFrameCli } from "./cli/frame-core.ts";
import { decodeAll } from "./detect.ts";
import * as dlt645 from "./dlt645/index.ts";
import { ProtocolError } from "./errors.ts";
import { toHex } from "./hex.ts";
import { cjtFrame, dltFrame, onlyProtocolErrors, RUNS } from "./test-arbitraries.ts";

/** Parsers and decoders only ever throw ProtocolError, never read out of bounds, and detect corruption. */
describe("parser properties", () => {
  test("random bytes: every parser and decoder returns or throws ProtocolError", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const dlt = onlyProtocolErrors(() => dlt645.parseFrame(bytes));
        if (!(dlt instanceof ProtocolError)) {
          assert.ok(
            dlt.start >= 0 && dlt.end <= bytes.length && dlt.end - dlt.start === 12 + dlt.data.length,
          );
          onlyProtocolErrors(() => dlt645.decodeFrame(dlt));
        }
        const cjt = onlyProtocolErrors(() => cjt188.parseFrame(bytes));
        if (!(cjt instanceof ProtocolError)) onlyProtocolErrors(() => cjt188.decodeFrame(cjt));
        onlyProtocolErrors(() => decodeAll(bytes));
      }),
      RUNS,
    );
  });

  test("random frames with valid framing always decode (both directions, any control code)", () => {
    fc.assert(
      fc.property(dltFrame, cjtFrame, (dlt, cjt) => {
        dlt645.decodeFrame(dlt645.parseFrame(dlt));
        dlt645.decodeFrame(dlt645.parseFrame(dlt), { version: "1997" });
        cjt188.decodeFrame(cjt188.parseFrame(cjt));
      }),
      RUNS,
    );
  });

  test("every single-byte corruption between the start byte and CS is detected (DL/T 645)", () => {
    fc.assert(
      fc.property(dltFrame, fc.nat(), fc.integer({ min: 1, max: 255 }), (frame, at, delta) => {
        const position = 1 + (at % (frame.length - 2));
        const mutated = frame.slice();
        mutated[position] = (mutated[position]! + delta) & 0xff;
        const result = onlyProtocolErrors(() => dlt645.parseFrame(mutated));
        assert.ok(
          result instanceof ProtocolError,
          `corruption at ${position} went unnoticed: ${toHex(mutated)}`,
        );
        if (position !== 7 && position !== 9) assert.equal(result.code, "checksum");
      }),
      RUNS,
    );
  });

  test("every single-byte corruption of the checked range is detected (CJ/T 188)", () => {
    fc.assert(
      fc.property(cjtFrame, fc.nat(), fc.integer({ min: 1, max: 255 }), (frame, at, delta) => {
        const position = 1 + (at % (frame.length - 2));
        const mutated = frame.slice();
        mutated[position] = (mutated[position]! + delta) & 0xff;
        const result = onlyProtocolErrors(() => cjt188.parseFrame(mutated));
        assert.ok(result instanceof ProtocolError);
        if (position !== 10) assert.equal(result.code, "checksum");
      }),
      RUNS,
    );
  });

  test("every truncation is reported as truncated, never out of bounds", () => {
    fc.assert(
      fc.property(dltFrame, cjtFrame, fc.nat(), (dlt, cjt, cut) => {
        const dltError = onlyProtocolErrors(() =>
          dlt645.parseFrame(dlt.subarray(0, 1 + (cut % (dlt.length - 1)))),
        );
        assert.ok(dltError instanceof ProtocolError && dltError.code === "truncated");
        const cjtError = onlyProtocolErrors(() =>
          cjt188.parseFrame(cjt.subarray(0, 1 + (cut % (cjt.length - 1)))),
        );
        assert.ok(cjtError instanceof ProtocolError && cjtError.code === "truncated");
      }),
      RUNS,
    );
  });

  test("the CLI core never throws on arbitrary input", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 30 }), { maxLength: 6 }), (argv) => {
        const result = runFrameCli(["decode", ...argv]);
        assert.ok(result.exitCode === 0 || result.exitCode === 1);
        runFrameCli(argv);
      }),
      { numRuns: 500 },
    );
  });
});
