import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { decodeModelBlock, findModel, loadCatalogue, modelsDirectory, readSpan } from "./catalogue.ts";
import { parseModel } from "./model.ts";
import { encodeRegisterValue } from "./registers.ts";

const catalogue = loadCatalogue();
const files = readdirSync(modelsDirectory()).filter((file) => file.endsWith(".json"));
const raw = (file: string) =>
  JSON.parse(readFileSync(join(modelsDirectory(), file), "utf8")) as Record<string, unknown>;

describe("model catalogue files", () => {
  test("at least eight models, every file passes the schema", () => {
    assert.ok(files.length >= 8, `${files.length} model files`);
    for (const file of files) parseModel(raw(file), file);
    assert.equal(catalogue.size, files.length);
  });

  test("every model names its manual, reads forward active energy, and says how sure it is", () => {
    for (const [key, model] of catalogue) {
      assert.ok(model.source.title.length > 10 && model.source.version.length > 0, key);
      assert.ok(
        model.registers.some((r) => /active energy/.test(r.name) && r.unit === "kWh"),
        `${key} has an active energy register`,
      );
      if (model.confidence === "unverified")
        assert.ok(model.notes?.includes("unverified"), `${key} says in its notes that it is unverified`);
    }
  });

  test("the prepaid model has remaining amount, purchase count, recharge and a relay with read-back", () => {
    const model = findModel(catalogue, "DDSY1352");
    assert.deepEqual(
      [model.prepaid?.remainingAmount, model.prepaid?.purchaseCount, model.prepaid?.recharge],
      ["remaining amount", "purchase count", "recharge amount"],
    );
    assert.equal(model.relay?.write.function, 16);
    assert.equal(model.relay?.readBack.kind, "register");
  });

  test("the schema names the field that is wrong", () => {
    const good = raw("sdm120.json");
    const registers = good.registers as Record<string, unknown>[];
    const broken = (change: (copy: Record<string, unknown>) => void) => {
      const copy = structuredClone(good);
      change(copy);
      return () => parseModel(copy, "x.json");
    };
    assert.throws(
      broken((c) => {
        (c.registers as Record<string, unknown>[])[2]!.type = "float16";
      }),
      /x\.json\.registers\[2\]\.type: must be one of/,
    );
    assert.throws(
      broken((c) => {
        (c.registers as Record<string, unknown>[])[0]!.scale = "0.5";
      }),
      /registers\[0\]\.scale: must be a power of ten/,
    );
    assert.throws(
      broken((c) => {
        (c.registers as Record<string, unknown>[])[1]!.address = "0x0001";
      }),
      /"current" overlaps "voltage" at input register 1/,
    );
    assert.throws(
      broken((c) => {
        (c.registers as Record<string, unknown>[])[1]!.name = registers[0]!.name;
      }),
      /the name "voltage" appears twice/,
    );
    assert.throws(
      broken((c) => {
        c.source = { title: "x" };
      }),
      /source\.version: must be a non-empty string/,
    );
    assert.throws(
      broken((c) => {
        c.relay = {
          write: { kind: "register", address: "0x0100", function: 6, on: 1, off: 0 },
          readBack: { kind: "register", address: "0x0101", function: 3, on: 1, off: 0 },
        };
      }),
      /relay\.write\.function: must be 16: the model accepts writes only by function 0x10/,
    );
    assert.throws(
      broken((c) => {
        c.prepaid = { remainingAmount: "balance" };
      }),
      /prepaid\.remainingAmount: names no register \("balance"\)/,
    );
    assert.throws(
      broken((c) => {
        c.colour = "red";
      }),
      /x\.json\.colour: is not a known field/,
    );
  });
});

describe("values by name from a read reply", () => {
  test("SDM120: an input-register block decodes to voltage, current, energy with units", () => {
    const model = findModel(catalogue, "sdm120");
    const registers = new Array(0x4c).fill(0);
    const put = (name: string, value: string) => {
      const register = model.registers.find((r) => r.name === name)!;
      registers.splice(register.address, 2, ...encodeRegisterValue(register, value));
    };
    put("voltage", "230.1");
    put("current", "5.25");
    put("forward active energy", "12345.67");
    const reading = decodeModelBlock(model, { function: 4, start: 0, registers });
    const values = Object.fromEntries(reading.fields.map((f) => [f.name, `${f.value} ${f.unit}`.trim()]));
    assert.equal(values.voltage, "230.1 V");
    assert.equal(values.current, "5.25 A");
    assert.equal(values["forward active energy"], "12345.67 kWh");
    assert.equal(values["reverse active energy"], "0 kWh");
    assert.equal(values["total active energy"], undefined, "0x0156 lies outside the block");
  });

  test("ADL400-style integers: uint32 at 0.01 kWh is exact; holding-register blocks skip input registers", () => {
    const model = findModel(catalogue, "adl400");
    const reading = decodeModelBlock(model, { function: 3, start: 0, registers: [0x0001, 0xe240, 0, 0] });
    assert.deepEqual(
      reading.fields.map((f) => [f.name, f.value, f.scaled]),
      [["combined active energy", "1234.56", 123456n]],
    );
    assert.deepEqual(decodeModelBlock(model, { function: 4, start: 0, registers: [1, 2] }).fields, []);
  });

  test("the relay read-back register gives on / off", () => {
    const model = findModel(catalogue, "ddsy1352");
    const readBack = model.relay!.readBack;
    const on = decodeModelBlock(model, { function: 3, start: readBack.address, registers: [readBack.on] });
    const off = decodeModelBlock(model, { function: 3, start: readBack.address, registers: [readBack.off] });
    assert.deepEqual([on.relay, off.relay], ["on", "off"]);
  });

  test("readSpan covers named registers in one read", () => {
    const model = findModel(catalogue, "dtsu666");
    const span = readSpan(model, ["voltage A", "current C"]);
    assert.deepEqual([span.function, span.start, span.quantity], [3, 0x2006, 0x0c]);
    assert.throws(() => readSpan(findModel(catalogue, "sdm630"), ["nothing"]), /no register "nothing"/);
  });
});
