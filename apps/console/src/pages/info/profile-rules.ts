import type { MessageKey } from "../../i18n/index.tsx";

/** The spec §5 phone helper: empty, then length, then format, each with its own message. */
export function phoneProblem(phone: string | undefined): MessageKey | null {
  const value = (phone ?? "").trim();
  if (value === "") return "info.phoneRequired";
  if (value.length !== 11) return "info.phoneLength";
  if (!/^1[3-9]\d{9}$/.test(value)) return "info.phoneFormat";
  return null;
}

/** The server takes avatars as jpg or png up to 500 kb; checking here saves a useless upload. */
export const AVATAR_MAX_BYTES = 500 * 1024;

export function avatarProblem(file: { name: string; type: string; size: number }): MessageKey | null {
  const extension = (file.name.split(".").pop() ?? "").toLowerCase();
  const image = ["image/jpeg", "image/png"].includes(file.type) && ["jpg", "jpeg", "png"].includes(extension);
  if (!image) return "info.avatarType";
  if (file.size > AVATAR_MAX_BYTES) return "info.avatarSize";
  return null;
}
