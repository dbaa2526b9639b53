import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fail } from "../errors.ts";
import type { NumberField } from "../values.ts";
import { type MeterModel, type ModelRegister, parseModel } from "./model.ts";
import { decodeRegisterValue, registerCount } from "./registers.ts";

/**
 * The model catalogue: one JSON file per model in ./models, checked by parseModel when loaded.
 * Loading reads files (only when asked, so importing the codec stays pure); decoding a read
 * reply against a model is pure.
 */
/** Where the model files live beside this module (resolved on call: bundlers move modules). */
export function modelsDirectory(): string {
  return fileURLToPath(new URL("./models/", import.meta.url));
}

/** Every model file in `directory`, keyed by file name without .json ("sdm120"). */
export function loadCatalogue(directory = modelsDirectory()): Map<string, MeterModel> {
  const catalogue = new Map<string, MeterModel>();
  for (const file of readdirSync(directory)
    .filter((name) => name.endsWith(".json"))
    .sort()) {
    const text = readFileSync(join(directory, file), "utf8");
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      fail("bad-argument", `${file}: not JSON (${(error as Error).message})`);
    }
    catalogue.set(file.slice(0, -".json".length), parseModel(json, file));
  }
  return catalogue;
}

/** A model by file name or by its `model` field, case-insensitively ("sdm120", "SDM120-Modbus"). */
export function findModel(catalogue: Map<string, MeterModel>, name: string): MeterModel {
  const wanted = name.toLowerCase();
  for (const [key, model] of catalogue)
    if (key === wanted || model.model.toLowerCase() === wanted) return model;
  fail("bad-argument", `no model "${name}" in the catalogue (${[...catalogue.keys()].join(", ")})`);
}

export interface RegisterBlock {
  /** 3 (holding) or 4 (input). */
  function: 3 | 4;
  /** Address of the first register read. */
  start: number;
  registers: readonly number[];
}

export interface ModelReading {
  fields: NumberField[];
  /** From the relay read-back register when the block holds it. */
  relay?: "on" | "off" | "unknown";
  /** The model's prepaid registers the block holds, by their role: the money left and the purchases made. */
  prepaid?: { remainingAmount?: NumberField; purchaseCount?: NumberField };
}

/**
 * The model's values inside one read reply: every register of the same function that lies
 * wholly inside the block, by name with its unit and exact decimal text.
 */
export function decodeModelBlock(model: MeterModel, block: RegisterBlock): ModelReading {
  const end = block.start + block.registers.length;
  const inside = (register: ModelRegister) =>
    register.function === block.function &&
    register.address >= block.start &&
    register.address + registerCount(register.type) <= end;
  const fields = model.registers
    .filter(inside)
    .sort((a, b) => a.address - b.address)
    .map((register) => {
      const from = register.address - block.start;
      return decodeRegisterValue(
        register.name,
        register,
        block.registers.slice(from, from + registerCount(register.type)),
      );
    });
  const reading: ModelReading = { fields };
  const prepaid: NonNullable<ModelReading["prepaid"]> = {};
  for (const role of ["remainingAmount", "purchaseCount"] as const) {
    const field = fields.find((f) => f.name === model.prepaid?.[role]);
    if (field) prepaid[role] = field;
  }
  if (Object.keys(prepaid).length > 0) reading.prepaid = prepaid;
  const readBack = model.relay?.readBack;
  if (readBack?.kind === "register" && readBack.function === block.function) {
    const at = readBack.address - block.start;
    if (at >= 0 && at < block.registers.length) {
      const value = block.registers[at];
      reading.relay = value === readBack.on ? "on" : value === readBack.off ? "off" : "unknown";
    }
  }
  return reading;
}

/** The smallest read (start, quantity) that covers the named registers (all of one function). */
export function readSpan(model: MeterModel, names: readonly string[]): RegisterBlock & { quantity: number } {
  const registers = names.map(
    (name) =>
      model.registers.find((r) => r.name === name) ??
      fail("bad-argument", `${model.model} has no register "${name}"`),
  );
  const functions = new Set(registers.map((r) => r.function));
  const only = [...functions][0];
  if (functions.size !== 1 || (only !== 3 && only !== 4))
    fail("bad-argument", "a read span needs registers of one read function (3 or 4)");
  const start = Math.min(...registers.map((r) => r.address));
  const end = Math.max(...registers.map((r) => r.address + registerCount(r.type)));
  return { function: only, start, quantity: end - start, registers: [] };
}
