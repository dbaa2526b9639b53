import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  GatewayConfigError,
  HeartbeatCounter,
  matchRegistration,
  PacketFormatError,
  parseTemplate,
  renderPacket,
  resolveSettings,
} from "@meterline/gateway";

const bytes = (text: string) => Buffer.from(text, "latin1");

describe("DTU packet templates", () => {
  test("the default registration: REG:<id> and a newline, sent in pieces", () => {
    const format = parseTemplate("REG:{id}\\n");
    assert.deepEqual(matchRegistration(format, bytes("RE")), { status: "need-more" });
    assert.deepEqual(matchRegistration(format, bytes("REG:DTU0")), { status: "need-more" });
    assert.deepEqual(matchRegistration(format, bytes("REG:DTU01\nxx")), {
      status: "ok",
      id: "DTU01",
      length: 10,
    });
    assert.equal(Buffer.from(renderPacket(format, "DTU01")).toString("latin1"), "REG:DTU01\n");
  });

  test("a bare fixed-length IMEI and a hex-framed vendor packet", () => {
    const imei = parseTemplate("{id:15}");
    assert.deepEqual(matchRegistration(imei, bytes("86612345678901")), { status: "need-more" });
    assert.deepEqual(matchRegistration(imei, bytes("866123456789012")), {
      status: "ok",
      id: "866123456789012",
      length: 15,
    });
    const vendor = parseTemplate("\\x7B\\x31\\x00\\x10{id:11}\\x7D");
    const packet = Buffer.concat([
      Buffer.from([0x7b, 0x31, 0x00, 0x10]),
      bytes("13912345678"),
      Buffer.from([0x7d]),
    ]);
    assert.deepEqual(matchRegistration(vendor, packet), { status: "ok", id: "13912345678", length: 16 });
    assert.deepEqual(Buffer.from(renderPacket(vendor, "13912345678")), packet);
  });

  test("wrong prefix, bad characters, runaway ids and bad suffixes are refused", () => {
    const format = parseTemplate("REG:{id}\\n");
    assert.equal(matchRegistration(format, bytes("GET / HTTP/1.1")).status, "invalid");
    assert.equal(matchRegistration(format, bytes("REG:a b\n")).status, "invalid");
    assert.equal(matchRegistration(format, bytes(`REG:${"A".repeat(80)}`)).status, "invalid");
    assert.equal(matchRegistration(parseTemplate("<{id:3}>"), bytes("<abc]")).status, "invalid");
    assert.equal(matchRegistration(format, bytes("REG:\n")).status, "invalid", "empty id");
  });

  test("the default registration carries the collector's secret after the id", () => {
    const format = parseTemplate("REG:{id},{secret}\\n");
    assert.deepEqual(matchRegistration(format, bytes("REG:DTU01,s3")), { status: "need-more" });
    assert.deepEqual(matchRegistration(format, bytes("REG:DTU01,s3cret-1\nHB")), {
      status: "ok",
      id: "DTU01",
      secret: "s3cret-1",
      length: 19,
    });
    assert.equal(matchRegistration(format, bytes("REG:DTU01,\n")).status, "invalid", "empty secret");
    assert.equal(matchRegistration(format, bytes("REG:DTU01,a b\n")).status, "invalid");
    assert.equal(
      Buffer.from(renderPacket(format, "DTU01", "s3cret-1")).toString("latin1"),
      "REG:DTU01,s3cret-1\n",
    );
    // Fixed lengths need no separator: a bare IMEI followed by a 16-character secret.
    const fixed = parseTemplate("{id:15}{secret:16}");
    assert.deepEqual(matchRegistration(fixed, bytes("8661234567890120123456789abcdef")), {
      status: "ok",
      id: "866123456789012",
      secret: "0123456789abcdef",
      length: 31,
    });
  });

  test("templates that cannot be matched are rejected up front", () => {
    assert.throws(() => parseTemplate("REG:{id}{secret}\\n"), PacketFormatError);
    assert.throws(() => parseTemplate("{secret}{secret}x"), PacketFormatError);
    assert.throws(() => parseTemplate("REG:{id}"), PacketFormatError);
    assert.throws(() => parseTemplate("{id}{id}x"), PacketFormatError);
    assert.throws(() => parseTemplate("\\q{id}\\n"), PacketFormatError);
    assert.throws(() => parseTemplate("{id:0}"), PacketFormatError);
  });

  test("the gateway refuses to start with a registration that carries no secret", () => {
    assert.throws(() => resolveSettings({ registration: "REG:{id}\\n" }), GatewayConfigError);
    assert.throws(() => resolveSettings({ registration: "{secret:8}\\n" }), GatewayConfigError);
    assert.throws(() => resolveSettings({ heartbeat: "HB{secret}\\n" }), GatewayConfigError);
    assert.throws(() => resolveSettings({ registration: "REG:{id}" }), /registration/);
    assert.equal(resolveSettings({}).registration, "REG:{id},{secret}\\n");
  });

  test("heartbeats are counted across chunk boundaries", () => {
    const counter = new HeartbeatCounter(renderPacket(parseTemplate("HB\\n")));
    assert.equal(counter.count(bytes("HB\nHB")), 1);
    assert.equal(counter.count(bytes("\nxxHB\n")), 2);
    assert.equal(counter.count(bytes("H")), 0);
    assert.equal(counter.count(bytes("B\n")), 1);
  });
});
