/**
 * Width and height an image declares in its header, read without decoding it: a small file can
 * declare a picture of gigapixels that every browser showing it must then inflate.
 * Undefined when the header does not say (or the kind is not read here).
 */
export function declaredSize(
  extension: string,
  bytes: Buffer,
): { width: number; height: number } | undefined {
  if (extension === "png" && bytes.length >= 24) {
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (extension === "gif" && bytes.length >= 10) {
    return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  }
  if (extension === "jpg" || extension === "jpeg") return jpegSize(bytes);
  return undefined;
}

/** Walks the JPEG segments to the first start-of-frame marker, which holds the size. */
function jpegSize(bytes: Buffer): { width: number; height: number } | undefined {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return undefined;
}
