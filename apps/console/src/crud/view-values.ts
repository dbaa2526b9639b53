import type { FieldDef, ResourceDef } from "@meterline/contracts";
import type { Language } from "../store/state.ts";
import { type FieldEntry, fieldsOf, linkLabelKey } from "./fields.ts";

/**
 * The fields a view dialog lists: those of the form and those of the table (a meter's balance is
 * read, not typed), never a secret, in the definition's order.
 */
export const viewFields = (def: ResourceDef): FieldEntry[] =>
  fieldsOf(def).filter(([, f]) => !f.secret && (f.form !== false || f.list !== false));

/** What a view dialog shows for a value that is not there. */
export const EMPTY_VALUE = "—";

const isBlank = (value: unknown) => value === null || value === undefined || value === "";

/**
 * A decimal with exactly `scale` places (money to the fen: "5" → "5.00", "5.0000" → "5.00"), done
 * on the text so that long exact amounts keep every digit; anything not a plain number is left as is.
 */
export function decimalText(value: unknown, scale: number | undefined): string {
  const text = String(value).trim();
  const match = /^(-?\d+)(?:\.(\d*))?$/.exec(text);
  if (!match || scale === undefined) return text;
  const [, whole, fraction = ""] = match;
  if (fraction.length <= scale || /^0*$/.test(fraction.slice(scale)))
    return scale === 0 ? whole! : `${whole}.${fraction.slice(0, scale).padEnd(scale, "0")}`;
  // More places than kept: rounded half away from zero, as numeric rounds, in whole units of the
  // last kept place so no floating point enters.
  const negative = whole!.startsWith("-");
  const digits = BigInt(`${whole!.replace("-", "")}${fraction.slice(0, scale)}`);
  const rounded = (Number(fraction[scale]) >= 5 ? digits + 1n : digits).toString().padStart(scale + 1, "0");
  const sign = negative && /[1-9]/.test(rounded) ? "-" : "";
  return scale === 0 ? `${sign}${rounded}` : `${sign}${rounded.slice(0, -scale)}.${rounded.slice(-scale)}`;
}

/** Text without its markup, line breaks kept: rich text is read, not rendered, in a view dialog. */
export const plainText = (html: string) =>
  html
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|li|h\d)>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .trim();

/**
 * The text of one field of a row in the read-only view, as the table shows it: dictionary values
 * by their label in the user's language, links by the label the engine joins in (a room with its
 * building), several links as a list, dates as the day alone, decimals to their scale (money with
 * two places), and "—" for nothing. Images are shown as thumbnails by the dialog itself.
 */
export function viewText(
  row: Record<string, unknown>,
  name: string,
  field: FieldDef,
  language: Language,
): string {
  const value = row[name];
  if (field.dict || field.dictBiz) {
    const label = language === "en" ? (row[`${name}NameEn`] ?? row[`${name}Name`]) : row[`${name}Name`];
    return isBlank(label) ? (isBlank(value) ? EMPTY_VALUE : String(value)) : String(label);
  }
  if (field.ref || field.refBy) {
    const label = row[linkLabelKey(name)];
    // A tree's root has parent "0" and no label: it has no parent to show.
    if (isBlank(label)) return isBlank(value) || value === "0" ? EMPTY_VALUE : String(value);
    return field.type === "idList" ? String(label).split(",").filter(Boolean).join(", ") : String(label);
  }
  if (isBlank(value)) return EMPTY_VALUE;
  switch (field.type) {
    case "decimal":
      return decimalText(value, field.scale);
    case "date":
      return String(value).slice(0, 10);
    case "richtext":
      return plainText(String(value)) || EMPTY_VALUE;
    default:
      return String(value);
  }
}
