import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { ProtocolError } from "../errors.ts";
import { toHex } from "../hex.ts";
import { FrameSplitter } from "../splitter.ts";
import { onlyProtocolErrors, RUNS } from "../test-arbitraries.ts";
import * as dlt698 from "./index.ts";
import { frame } from "./test-arbitraries.ts";

/** The DL/T 698.45 parser only ever throws ProtocolError, stays in bounds and notices corruption. */
describe("DL/T 698.45 parser properties", () => {
  test("random bytes: parse, decode and APDU decode return or throw ProtocolError", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const parsed = onlyProtocolErrors(() => dlt698.parseFrame(bytes));
        if (!(parsed instanceof ProtocolError)) {
          assert.ok(parsed.start >= 0 && parsed.end <= bytes.length);
          dlt698.decodeFrame(parsed);
        }
        onlyProtocolErrors(() => dlt698.decodeApdu(bytes));
        onlyProtocolErrors(() => dlt698.decodeData(bytes));
      }),
      RUNS,
    );
  });

  test("random APDU bytes behind valid framing: decodeFrame never throws, it reports apduError", () => {
    fc.assert(
      fc.property(frame, ({ input, bytes }) => {
        const decoded = dlt698.decodeFrame(dlt698.parseFrame(bytes));
        assert.deepEqual([decoded.server, decoded.client], [input.server, input.client]);
        assert.ok(decoded.apdu !== null || decoded.apduError !== null);
      }),
      RUNS,
    );
  });

  test("every single-byte corruption between the start byte and the end byte is detected", () => {
    fc.assert(
      fc.property(frame, fc.nat(), fc.integer({ min: 1, max: 255 }), ({ bytes }, at, delta) => {
        const position = 1 + (at % (bytes.length - 2));
        const mutated = bytes.slice();
        mutated[position] = (mutated[position]! + delta) & 0xff;
        const result = onlyProtocolErrors(() => dlt698.parseFrame(mutated));
        assert.ok(
          result instanceof ProtocolError,
          `corruption at ${position} went unnoticed: ${toHex(mutated)}`,
        );
        // L and the SA flag decide where the checks are; anywhere else a CRC must catch it.
        if (position > 4) assert.equal(result.code, "checksum");
      }),
      RUNS,
    );
  });

  test("every truncation is reported as truncated, never out of bounds", () => {
    fc.assert(
      fc.property(frame, fc.nat(), ({ bytes }, cut) => {
        const error = onlyProtocolErrors(() =>
          dlt698.parseFrame(bytes.subarray(0, 1 + (cut % (bytes.length - 1)))),
        );
        assert.ok(error instanceof ProtocolError && error.code === "truncated");
      }),
      RUNS,
    );
  });

  test("nesting deeper than MAX_DEPTH is refused, not a stack overflow", () => {
    const deep = new Uint8Array(20_000).fill(0x01); // array of 1 array of 1 array of …
    const error = onlyProtocolErrors(() => dlt698.decodeData(deep));
    assert.ok(
      error instanceof ProtocolError && error.code === "bad-apdu" && /nested deeper/.test(error.message),
    );
    const huge = Uint8Array.of(0x01, 0x84, 0xff, 0xff, 0xff, 0xff, 0x00);
    const count = onlyProtocolErrors(() => dlt698.decodeData(huge));
    assert.ok(count instanceof ProtocolError && /too many/.test(count.message));
  });

  test("stream splitter (dlt698): frames between junk, cut anywhere, come out whole and bounded", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            frame,
            fc.uint8Array({ maxLength: 6 }).map((junk) => junk.map((b) => (b === 0x68 ? 0 : b))),
          ),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        fc.array(fc.nat(), { maxLength: 5 }),
        (parts, cuts) => {
          const stream = Uint8Array.from(parts.flatMap(([f, junk]) => [...junk, ...f.bytes]));
          const points = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
          const splitter = new FrameSplitter({ protocol: "dlt698", maxFrameLength: 512 });
          const out: string[] = [];
          let from = 0;
          for (const to of [...points, stream.length]) {
            for (const f of splitter.push(stream.subarray(from, to))) out.push(toHex(f.bytes));
            assert.ok(splitter.pending < 512);
            from = to;
          }
          assert.deepEqual(
            out,
            parts.map(([f]) => toHex(f.bytes)),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
