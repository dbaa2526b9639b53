/**
 * Whether an image address may be shown: the console's Content-Security-Policy allows images of
 * its own origin and data: only, so a provider's avatar or icon elsewhere is linked, not loaded.
 */
export function isShowableImage(url: string): boolean {
  if (!url) return false;
  if (url.startsWith("data:image/")) return true;
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}
