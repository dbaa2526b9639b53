import fc from "fast-check";
import * as cjt188 from "./cjt188/index.ts";
import * as dlt645 from "./dlt645/index.ts";
import { ProtocolError } from "./errors.ts";

/** Shared fast-check generators for the property tests (~1,000–2,000 runs each keeps the suite fast). */
export const RUNS = { numRuns: 1000 };

/** Call `fn`; a ProtocolError counts as a result, anything else fails the property. */
export function onlyProtocolErrors<T>(fn: () => T): T | ProtocolError {
  try {
    return fn();
  } catch (error) {
    if (error instanceof ProtocolError) return error;
    throw error;
  }
}

export const digits = (n: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((d) => d.join(""));
export const dltAddress = digits(12);
export const cjtAddress = digits(14);
export const READ_DIS = [
  "00010000",
  "0001FF00",
  "00900200",
  "02010100",
  "02020100",
  "02030000",
  "04000101",
  "04000503",
  "9010",
  "B611",
];

/** A valid DL/T 645 frame of any function, with random data. */
export const dltFrame = fc
  .record({
    address: dltAddress,
    control: fc.integer({ min: 0, max: 255 }),
    data: fc.uint8Array({ maxLength: 64 }),
  })
  .map((input) => dlt645.buildFrame(input));

/** A valid CJ/T 188 frame of any type and function, with random data. */
export const cjtFrame = fc
  .record({
    meterType: fc.integer({ min: 0, max: 255 }),
    address: cjtAddress,
    control: fc.integer({ min: 0, max: 255 }),
    data: fc.uint8Array({ maxLength: 64 }),
  })
  .map((input) => cjt188.buildFrame(input));
