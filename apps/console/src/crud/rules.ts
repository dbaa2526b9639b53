import type { FieldDef } from "@meterline/contracts";
import type { FormRule as Rule } from "antd";
import type { MessageKey, Translate } from "../i18n/index.tsx";
import { isChoice, isMasked } from "./fields.ts";

const patternKeys: Record<string, MessageKey> = {
  email: "crud.pattern.email",
  phone: "crud.pattern.phone",
  alias: "crud.pattern.alias",
  idCard: "crud.pattern.idCard",
  meterAddress12: "crud.pattern.meterAddress12",
  meterAddress14: "crud.pattern.meterAddress14",
  hex8: "crud.pattern.hex8",
  dtuSecret: "crud.pattern.dtuSecret",
  networks: "crud.pattern.networks",
  url: "crud.pattern.url",
  alipayAppId: "crud.pattern.alipayAppId",
};

/**
 * The same checks the engine applies (contract §4), so most mistakes are caught before the call;
 * messages are "请输入<label>" / "请选择<label>" as spec §5 words them.
 */
export function rulesOf(field: FieldDef, label: string, t: Translate, creating = false): Rule[] {
  const rules: Rule[] = [];
  // A new row's secret (a user's password) has no stored value to fall back on, so it is required.
  if (field.required || (creating && field.secret)) {
    const picked = isChoice(field) || field.type === "datetime" || field.type === "date";
    rules.push({ required: true, message: t(picked ? "crud.requiredSelect" : "crud.required", { label }) });
  }
  if (field.maxLength !== undefined && !isChoice(field) && field.type !== "int") {
    rules.push({ max: field.maxLength, message: t("crud.maxLength", { label, max: field.maxLength }) });
  }
  if (field.pattern) {
    const known = patternKeys[field.pattern.message];
    const message = known ? t(known) : t("crud.pattern.other", { label });
    const pattern = new RegExp(field.pattern.regex);
    // A phone of the wrong length is told so first (spec §5 phone helper), then its format.
    if (field.pattern.message === "phone")
      rules.push({
        validator: async (_, value: unknown) => {
          const text = value === undefined || value === null ? "" : String(value).trim();
          if (text === "") return;
          if (text.length !== 11) throw new Error(t("info.phoneLength"));
          if (!pattern.test(text)) throw new Error(message);
        },
      });
    // An encrypted field holds the server's mask until retyped; the mask stands for a valid value.
    else if (field.encrypted)
      rules.push({
        validator: async (_, value: unknown) => {
          if (value === undefined || value === null || value === "" || isMasked(value)) return;
          if (!pattern.test(String(value))) throw new Error(message);
        },
      });
    else rules.push({ pattern, message });
  }
  if (
    (field.type === "int" || field.type === "decimal") &&
    (field.min !== undefined || field.max !== undefined)
  )
    rules.push(rangeRule(field.min, field.max, rangeMessage(field.min, field.max, label, t)));
  return rules;
}

/** A plain number as text: what an InputNumber holds, never "0x10" or "1e3". */
const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

function rangeMessage(min: number | undefined, max: number | undefined, label: string, t: Translate) {
  if (min === undefined) return t("crud.atMost", { label, max: max ?? "" });
  if (max === undefined) return t("crud.atLeast", { label, min });
  return t("crud.range", { label, min, max });
}

/**
 * The bounds of a number field. A decimal is held as the exact text the server sent or the
 * operator typed ("55.00"), an integer as a number: both are read here, only to compare, so a
 * saved value passes exactly as it was saved (antd's `type: "number"` refuses the text).
 */
function rangeRule(min: number | undefined, max: number | undefined, message: string): Rule {
  return {
    validator: async (_, value: unknown) => {
      const text = typeof value === "number" ? String(value) : String(value ?? "").trim();
      if (text === "") return;
      const number = Number(text);
      if (!NUMBER_TEXT.test(text) || !Number.isFinite(number)) throw new Error(message);
      if ((min !== undefined && number < min) || (max !== undefined && number > max))
        throw new Error(message);
    },
  };
}
