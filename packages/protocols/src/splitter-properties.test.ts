import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { decodeAll } from "./detect.ts";
import { toHex } from "./hex.ts";
import { FrameSplitter, splitFrames } from "./splitter.ts";
import { cjtFrame, dltFrame, onlyProtocolErrors, RUNS } from "./test-arbitraries.ts";

/** The stream splitters always make progress, stay bounded and find every frame. */
describe("splitter properties", () => {
  test("splitter: random chunking finds the same frames; pending stays bounded; progress always", () => {
    const garbage = fc.uint8Array({ maxLength: 40 });
    const stream = fc.array(fc.tuple(garbage, fc.oneof(dltFrame, cjtFrame)), { maxLength: 6 });
    fc.assert(
      fc.property(
        stream,
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 20 }),
        (parts, cuts) => {
          const bytes = Uint8Array.from(parts.flatMap(([junk, frame]) => [...junk, ...frame]));
          const whole = splitFrames(bytes, { protocol: "auto" });
          for (const frame of whole.frames) onlyProtocolErrors(() => decodeAll(frame.bytes));
          const splitter = new FrameSplitter({ protocol: "auto" });
          const found: string[] = [];
          for (let offset = 0, i = 0; offset < bytes.length; i++) {
            const size = cuts[i % cuts.length]!;
            found.push(
              ...splitter.push(bytes.subarray(offset, offset + size)).map((frame) => toHex(frame.bytes)),
            );
            offset += size;
            assert.ok(splitter.pending <= 13 + 255, "pending tail is bounded by the longest frame");
          }
          // Chunking does not change what is found, except for the tail still pending.
          const expected = whole.frames.map((frame) => toHex(frame.bytes));
          assert.deepEqual(found, expected);
        },
      ),
      { numRuns: 800 },
    );
  });

  test("splitter: a frame between 0x68-free garbage is always found", () => {
    const junk = fc.uint8Array({ maxLength: 60 }).map((bytes) => bytes.map((b) => (b === 0x68 ? 0x00 : b)));
    fc.assert(
      fc.property(junk, fc.oneof(dltFrame, cjtFrame), junk, (before, frame, after) => {
        const bytes = Uint8Array.from([...before, ...frame, ...after]);
        const result = splitFrames(bytes, { protocol: "auto" });
        assert.ok(result.frames.some((found) => toHex(found.bytes) === toHex(frame)));
        assert.ok(result.consumed > 0 || bytes.length === 0);
      }),
      RUNS,
    );
  });

  test("splitFrames on random bytes: consumed only stops before a short candidate", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 400 }),
        fc.constantFrom("dlt645", "cjt188", "auto", "any") as fc.Arbitrary<
          "dlt645" | "cjt188" | "auto" | "any"
        >,
        (bytes, protocol) => {
          // "any" also waits for 698.45 frames: bounded by the same maximum as the others here.
          const result = splitFrames(bytes, {
            protocol,
            ...(protocol === "any" ? { maxFrameLength: 268 } : {}),
          });
          assert.ok(result.consumed <= bytes.length);
          if (result.consumed < bytes.length) {
            assert.equal(bytes[result.consumed], 0x68);
            assert.ok(bytes.length - result.consumed < 13 + 255);
          }
        },
      ),
      RUNS,
    );
  });
});
