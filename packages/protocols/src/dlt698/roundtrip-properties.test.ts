import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { RUNS } from "../test-arbitraries.ts";
import * as dlt698 from "./index.ts";
import { apdu, data, serverAddress } from "./test-arbitraries.ts";

/** encode ∘ decode = id for every Data type, every APDU, whole frames and split transfers. */
describe("DL/T 698.45 round-trip properties", () => {
  test("round trip: A-XDR Data of every type (nested arrays, structures, records, selectors)", () => {
    fc.assert(
      fc.property(data, (value) => {
        assert.deepEqual(dlt698.decodeData(dlt698.encodeData(value)), value);
      }),
      RUNS,
    );
  });

  test("round trip: every APDU the codec knows", () => {
    fc.assert(
      fc.property(apdu, (value) => {
        assert.deepEqual(dlt698.decodeApdu(dlt698.encodeApdu(value)), value);
      }),
      RUNS,
    );
  });

  test("round trip: frames with any address, CA, scrambling and preamble decode to what was built", () => {
    fc.assert(
      fc.property(
        serverAddress,
        apdu,
        fc.integer({ min: 0, max: 255 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 4 }),
        (server, value, client, scrambled, preamble) => {
          const wire = dlt698.buildApduFrame(server, value, { client, scrambled, preamble });
          const frame = dlt698.parseFrame(wire);
          assert.deepEqual(
            [frame.server, frame.client, frame.start, frame.end],
            [server, client, preamble, wire.length],
          );
          const decoded = dlt698.decodeFrame(frame);
          assert.deepEqual(decoded.apdu, value);
          assert.equal(decoded.control.scrambled, scrambled);
          assert.equal(
            decoded.control.direction === "server->client",
            dlt698.serviceSide(value) === "server",
          );
        },
      ),
      RUNS,
    );
  });

  test("round trip: an APDU split into blocks of any size reassembles to itself", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 600 }),
        fc.integer({ min: 1, max: 200 }),
        (bytes, blockSize) => {
          const frames = dlt698.buildSplitFrames({
            control: 0xc3,
            server: "000000000001",
            apdu: bytes,
            blockSize,
          });
          const collector = new dlt698.SplitReassembler();
          const steps = frames.map((f) => collector.push(dlt698.parseFrame(f)));
          const last = steps.at(-1);
          assert.ok(last?.status === "complete");
          assert.deepEqual(last.apdu, bytes);
          assert.ok(
            steps.slice(0, -1).every((step, i) => step.status === "need-more" && step.ackSequence === i),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  test("round trip: requests the gateway builds are what the simulated meter reads", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...Object.values(dlt698.OAD)), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 0, max: 63 }),
        fc.record({
          alarmDelayMinutes: fc.integer({ min: 0, max: 255 }),
          durationMinutes: fc.integer({ min: 0, max: 65535 }),
          autoClose: fc.boolean(),
        }),
        (oads, piid, trip) => {
          const get = dlt698.decodeFromClient(
            dlt698.parseFrame(dlt698.buildGet("202600000001", oads, { piid })),
          );
          assert.deepEqual(
            get.attributes.map((a) => a.oad),
            oads,
          );
          assert.equal(get.piid?.sequence, piid);
          const action = dlt698.decodeFromClient(
            dlt698.parseFrame(dlt698.buildTrip("202600000001", trip, { piid })),
          );
          assert.ok(action.apdu?.service === "action-request-normal");
          assert.deepEqual(action.apdu.data, dlt698.tripData(trip));
        },
      ),
      RUNS,
    );
  });
});
