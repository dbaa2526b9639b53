import type { MessageKey } from "../i18n/index.tsx";

/**
 * Images (avatars and every `image` field) are jpg or png of at most 500 kb (spec §5), the rule
 * the server applies to `purpose=avatar` uploads; checking here saves a useless upload.
 */
export const IMAGE_MAX_BYTES = 500 * 1024;

/** What file pickers offer for images. */
export const IMAGE_ACCEPT = ".jpg,.jpeg,.png";

export function imageProblem(file: { name: string; type: string; size: number }): MessageKey | null {
  const extension = (file.name.split(".").pop() ?? "").toLowerCase();
  const image = ["image/jpeg", "image/png"].includes(file.type) && ["jpg", "jpeg", "png"].includes(extension);
  if (!image) return "info.avatarType";
  if (file.size > IMAGE_MAX_BYTES) return "info.avatarSize";
  return null;
}
