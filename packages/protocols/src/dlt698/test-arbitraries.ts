import fc from "fast-check";
import { toHex } from "../hex.ts";
import type { ServerAddress } from "./address.ts";
import type {
  Apdu,
  FollowReport,
  RecordRequest,
  ResultNormal,
  ResultRecord,
  SecurityVerification,
  TimeTag,
} from "./apdu.ts";
import type { Csd, Data, DateTime, DateTimeS, Ms, Region, Rsd, Sid, Ti } from "./axdr.ts";
import { buildFrame } from "./frame.ts";

/** fast-check generators for the DL/T 698.45 property tests: every Data type and every APDU. */
// Plain prototypes, so decoded values compare deep-equal to generated ones.
const rec: typeof fc.record = ((model: Record<string, fc.Arbitrary<unknown>>) =>
  fc.record(model, { noNullPrototype: true })) as typeof fc.record;
const byte = fc.integer({ min: 0, max: 255 });
const u16 = fc.integer({ min: 0, max: 0xffff });
const u32 = fc.integer({ min: 0, max: 0xffffffff });
const hexOf = (max: number, min = 0) =>
  fc.uint8Array({ minLength: min, maxLength: max }).map((b) => toHex(b, ""));
export const oad = fc
  .integer({ min: 0, max: 0xffffffff })
  .map((n) => n.toString(16).toUpperCase().padStart(8, "0"));
const oi = u16.map((n) => n.toString(16).toUpperCase().padStart(4, "0"));

export const dateTime: fc.Arbitrary<DateTime> = rec({
  year: u16,
  month: byte,
  day: byte,
  weekday: byte,
  hour: byte,
  minute: byte,
  second: byte,
  milliseconds: u16,
});
export const dateTimeS: fc.Arbitrary<DateTimeS> = rec({
  year: u16,
  month: byte,
  day: byte,
  hour: byte,
  minute: byte,
  second: byte,
});
const ti: fc.Arbitrary<Ti> = rec({ unit: byte, interval: u16 });
const sid: fc.Arbitrary<Sid> = rec({ id: u32, extra: hexOf(8) });
const csd: fc.Arbitrary<Csd> = fc.oneof(
  rec({ oad }),
  rec({ road: rec({ oad, oads: fc.array(oad, { maxLength: 4 }) }) }),
);

const leaf: fc.Arbitrary<Data> = fc.oneof(
  fc.constant({ type: "null" } as const),
  fc.boolean().map((value) => ({ type: "bool", value }) as const),
  fc.stringMatching(/^[01]{0,40}$/).map((bits) => ({ type: "bit-string", bits }) as const),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map((value) => ({ type: "double-long", value }) as const),
  u32.map((value) => ({ type: "double-long-unsigned", value }) as const),
  fc.integer({ min: -128, max: 127 }).map((value) => ({ type: "integer", value }) as const),
  fc.integer({ min: -32768, max: 32767 }).map((value) => ({ type: "long", value }) as const),
  byte.map((value) => ({ type: "unsigned", value }) as const),
  u16.map((value) => ({ type: "long-unsigned", value }) as const),
  byte.map((value) => ({ type: "enum", value }) as const),
  fc
    .bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n })
    .map((value) => ({ type: "long64", value }) as const),
  fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }).map((value) => ({ type: "long64-unsigned", value }) as const),
  fc.float().map((value) => ({ type: "float32", value }) as const),
  fc.double().map((value) => ({ type: "float64", value }) as const),
  fc
    .constantFrom("octet-string", "mac", "rn", "tsa")
    .chain((type) => hexOf(150).map((hex) => ({ type, hex }) as Data)),
  fc.stringMatching(/^[ -~]{0,40}$/).map((value) => ({ type: "visible-string", value }) as const),
  fc.string({ unit: "grapheme", maxLength: 12 }).map((value) => ({ type: "utf8-string", value }) as const),
  dateTime.map((value) => ({ type: "date-time", value }) as const),
  rec({ year: u16, month: byte, day: byte, weekday: byte }).map(
    (value) => ({ type: "date", value }) as const,
  ),
  rec({ hour: byte, minute: byte, second: byte }).map((value) => ({ type: "time", value }) as const),
  dateTimeS.map((value) => ({ type: "date-time-s", value }) as const),
  oi.map((value) => ({ type: "oi", value }) as const),
  fc.constantFrom("oad", "omd").chain((type) => oad.map((value) => ({ type, value }) as Data)),
  rec({ oad, oads: fc.array(oad, { maxLength: 4 }) }).map((value) => ({ type: "road", value }) as const),
  ti.map((value) => ({ type: "ti", value }) as const),
  rec({ scaler: fc.integer({ min: -128, max: 127 }), unit: byte }).map(
    (v) => ({ type: "scaler-unit", ...v }) as const,
  ),
  csd.map((value) => ({ type: "csd", value }) as const),
  sid.map((value) => ({ type: "sid", value }) as const),
  rec({ sid, mac: hexOf(8) }).map((value) => ({ type: "sid-mac", value }) as const),
  rec({ baud: byte, parity: byte, dataBits: byte, stopBits: byte, flowControl: byte }).map(
    (value) => ({ type: "comdcb", value }) as const,
  ),
  fc.array(csd, { maxLength: 3 }).map((value) => ({ type: "rcsd", value }) as const),
);

const { data } = fc.letrec<{ data: Data }>((tie) => ({
  data: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc
      .constantFrom("array", "structure")
      .chain((type) => fc.array(tie("data"), { maxLength: 5 }).map((items) => ({ type, items }) as Data)),
    regionOf(tie("data")).map((value) => ({ type: "region", value }) as const),
    msOf(tie("data")).map((value) => ({ type: "ms", value }) as const),
    rsdOf(tie("data")).map((value) => ({ type: "rsd", value }) as const),
  ),
}));

export { data };

function regionOf(d: fc.Arbitrary<Data>): fc.Arbitrary<Region> {
  return rec({ kind: byte, start: d, end: d });
}
function msOf(d: fc.Arbitrary<Data>): fc.Arbitrary<Ms> {
  return fc.oneof(
    fc.constant({ kind: "none" } as const),
    fc.constant({ kind: "all" } as const),
    fc.array(byte, { maxLength: 4 }).map((items) => ({ kind: "user-types", items }) as const),
    fc.array(hexOf(8, 1), { maxLength: 3 }).map((items) => ({ kind: "addresses", items }) as const),
    fc.array(u16, { maxLength: 4 }).map((items) => ({ kind: "serials", items }) as const),
    fc
      .constantFrom("user-type-regions", "address-regions", "serial-regions")
      .chain((kind) => fc.array(regionOf(d), { maxLength: 2 }).map((items) => ({ kind, items }) as Ms)),
  );
}
function rsdOf(d: fc.Arbitrary<Data>): fc.Arbitrary<Rsd> {
  const s2 = rec({ oad, from: d, to: d, step: d });
  const ms = msOf(d);
  return fc.oneof(
    fc.constant({ selector: 0 } as const),
    rec({ oad, value: d }).map((v) => ({ selector: 1, ...v }) as const),
    s2.map((v) => ({ selector: 2, ...v }) as const),
    fc.array(s2, { maxLength: 2 }).map((items) => ({ selector: 3, items }) as const),
    rec({ selector: fc.constantFrom(4 as const, 5 as const), time: dateTimeS, ms }),
    rec({
      selector: fc.constantFrom(6 as const, 7 as const, 8 as const),
      from: dateTimeS,
      to: dateTimeS,
      interval: ti,
      ms,
    }),
    byte.map((last) => ({ selector: 9, last }) as const),
    rec({ last: byte, ms }).map((v) => ({ selector: 10, ...v }) as const),
  );
}

const timeTag: fc.Arbitrary<TimeTag | null> = fc.option(rec({ sent: dateTimeS, validFor: ti }), {
  nil: null,
});
const resultNormal: fc.Arbitrary<ResultNormal> = rec({
  oad,
  result: fc.oneof(rec({ dar: byte }), rec({ data })),
});
const resultRecord: fc.Arbitrary<ResultRecord> = fc
  .array(csd, { minLength: 1, maxLength: 3 })
  .chain((columns) =>
    rec({
      oad,
      columns: fc.constant(columns),
      result: fc.oneof(
        rec({ dar: byte }),
        rec({ rows: fc.array(fc.tuple(...columns.map(() => data)), { maxLength: 3 }) }),
      ),
    }),
  );
const recordRequest: fc.Arbitrary<RecordRequest> = rec({
  oad,
  rsd: rsdOf(data),
  columns: fc.array(csd, { maxLength: 3 }),
});
const followReport: fc.Arbitrary<FollowReport | null> = fc.option(
  fc.oneof(
    rec({ results: fc.array(resultNormal, { maxLength: 2 }) }),
    rec({ records: fc.array(resultRecord, { maxLength: 2 }) }),
  ),
  { nil: null },
);
const verification: fc.Arbitrary<SecurityVerification> = fc.oneof(
  rec({ kind: fc.constant("sid-mac" as const), sid, mac: hexOf(8) }),
  rec({ kind: fc.constant("rn" as const), rn: hexOf(16) }),
  rec({ kind: fc.constant("rn-mac" as const), rn: hexOf(16), mac: hexOf(8) }),
  rec({ kind: fc.constant("sid" as const), sid }),
);

const req = { piid: byte, timeTag };
const res = { piid: byte, followReport, timeTag };
export const apdu: fc.Arbitrary<Apdu> = fc.oneof(
  rec({
    service: fc.constant("link-request" as const),
    piid: byte,
    requestType: fc.constantFrom("login" as const, "heartbeat" as const, "logout" as const),
    heartbeatSeconds: u16,
    time: dateTime,
  }),
  rec({
    service: fc.constant("link-response" as const),
    piid: byte,
    clockTrusted: fc.boolean(),
    result: fc.constantFrom(
      "success" as const,
      "address-duplicate" as const,
      "illegal-device" as const,
      "capacity-insufficient" as const,
    ),
    requestTime: dateTime,
    receivedTime: dateTime,
    responseTime: dateTime,
  }),
  rec({ service: fc.constant("get-request-normal" as const), oad, ...req }),
  rec({
    service: fc.constant("get-request-normal-list" as const),
    oads: fc.array(oad, { maxLength: 6 }),
    ...req,
  }),
  rec({ service: fc.constant("get-request-record" as const), record: recordRequest, ...req }),
  rec({
    service: fc.constant("get-request-record-list" as const),
    records: fc.array(recordRequest, { maxLength: 2 }),
    ...req,
  }),
  rec({ service: fc.constant("get-request-next" as const), lastBlock: u16, ...req }),
  rec({ service: fc.constant("set-request-normal" as const), oad, data, ...req }),
  rec({ service: fc.constant("action-request-normal" as const), omd: oad, data, ...req }),
  rec({
    service: fc.constantFrom("report-response-list" as const, "report-response-record-list" as const),
    oads: fc.array(oad, { maxLength: 4 }),
    ...req,
  }),
  rec({ service: fc.constant("get-response-normal" as const), result: resultNormal, ...res }),
  rec({
    service: fc.constant("get-response-normal-list" as const),
    results: fc.array(resultNormal, { maxLength: 4 }),
    ...res,
  }),
  rec({ service: fc.constant("get-response-record" as const), record: resultRecord, ...res }),
  rec({
    service: fc.constant("get-response-record-list" as const),
    records: fc.array(resultRecord, { maxLength: 2 }),
    ...res,
  }),
  rec({
    service: fc.constant("get-response-next" as const),
    lastBlockFlag: fc.boolean(),
    block: u16,
    body: fc.oneof(
      rec({ dar: byte }),
      rec({ results: fc.array(resultNormal, { maxLength: 2 }) }),
      rec({ records: fc.array(resultRecord, { maxLength: 2 }) }),
    ),
    ...res,
  }),
  rec({ service: fc.constant("set-response-normal" as const), oad, dar: byte, ...res }),
  rec({
    service: fc.constant("action-response-normal" as const),
    omd: oad,
    dar: byte,
    data: fc.option(data, { nil: null }),
    ...res,
  }),
  rec({
    service: fc.constant("report-notification-list" as const),
    results: fc.array(resultNormal, { maxLength: 3 }),
    ...res,
  }),
  rec({
    service: fc.constant("report-notification-record-list" as const),
    records: fc.array(resultRecord, { maxLength: 2 }),
    ...res,
  }),
  rec({
    service: fc.constant("security-request" as const),
    ciphered: fc.boolean(),
    data: hexOf(60),
    verification,
  }),
  rec({
    service: fc.constant("security-response" as const),
    body: fc.oneof(rec({ ciphered: fc.boolean(), data: hexOf(60) }), rec({ dar: byte })),
    mac: fc.option(hexOf(8), { nil: null }),
  }),
  rec({ service: fc.constant("error-response" as const), piid: byte, errorType: byte }),
  rec({
    service: fc.constant("other" as const),
    tag: fc.constantFrom(0x02, 0x03, 0x09, 0x82, 0x83, 0x84, 0x89),
    hex: hexOf(30),
  }),
);

export const serverAddress: fc.Arbitrary<ServerAddress> = rec({
  type: fc.constantFrom("single" as const, "wildcard" as const, "group" as const, "broadcast" as const),
  logical: fc.integer({ min: 0, max: 3 }),
  address: hexOf(16, 1).map((h) => h.toUpperCase()),
});

/** A valid frame (any control byte, any APDU bytes). */
export const frame = rec({
  control: byte.map((c) => c & ~0x20),
  server: serverAddress,
  client: byte,
  apdu: fc.uint8Array({ maxLength: 80 }),
}).map((input) => ({ input, bytes: buildFrame(input) }));
