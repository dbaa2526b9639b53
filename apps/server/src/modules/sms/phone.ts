import { badRequest } from "../../contract/errors.ts";

/** The most numbers one send may name (Tencent Cloud takes 200 per call, Aliyun 1,000). */
export const MAX_PHONES = 200;

/** Mainland mobile numbers: 11 digits starting 13 to 19 (the owner form checks the same). */
const MOBILE = /^1[3-9]\d{9}$/;

/**
 * Why a number breaks the phone rules of spec §5, in the helper's words and order (empty, then
 * length, then format), or undefined when it is fine.
 */
export function phoneProblem(phone: string): string | undefined {
  if (phone === "") return "手机号码不能为空";
  if (phone.length !== 11) return "手机号码长度不为11位";
  if (!MOBILE.test(phone)) return "手机号码格式不正确";
  return undefined;
}

/** The numbers of a comma-separated list (or an array), each checked; a 400 naming `phones` otherwise. */
export function readPhones(raw: unknown): string[] {
  const list = Array.isArray(raw)
    ? raw.map((p) => String(p).trim())
    : raw === undefined || raw === null
      ? []
      : String(raw)
          .split(",")
          .map((p) => p.trim());
  const phones = list.length === 1 && list[0] === "" ? [] : list;
  if (phones.length === 0) throw badRequest("phones: 手机号码不能为空");
  if (phones.length > MAX_PHONES) throw badRequest(`phones: 一次最多发送 ${MAX_PHONES} 个号码`);
  for (const phone of phones) {
    const problem = phoneProblem(phone);
    if (problem) throw badRequest(`phones: ${problem}${phone ? ` (${phone.slice(0, 20)})` : ""}`);
  }
  return [...new Set(phones)];
}

/** Template values: a JSON object (or its text, as the console sends it) of strings or numbers. */
export function readTemplateParams(raw: unknown): Record<string, string> {
  if (raw === undefined || raw === null || raw === "") return {};
  let value: unknown = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      throw badRequest('params: 应为 JSON 对象,如 {"code":"1234"}');
    }
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw badRequest('params: 应为 JSON 对象,如 {"code":"1234"}');
  }
  const params: Record<string, string> = {};
  for (const [name, item] of Object.entries(value)) {
    if (typeof item !== "string" && typeof item !== "number")
      throw badRequest(`params: ${name} 应为文字或数字`);
    params[name] = String(item);
  }
  return params;
}
