/**
 * An .xlsx is a ZIP archive: ten megabytes of upload can inflate to gigabytes of sheet XML. Before
 * handing the file to the Excel reader, the archive's own directory is read to learn how large its
 * entries say they are, so a compression bomb is refused without inflating anything.
 */

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const END_RECORD_SIZE = 22;
const ENTRY_HEADER_SIZE = 46;
/** The ZIP64 marker: a size too large for the classic fields, far beyond any sheet we accept. */
const ZIP64 = 0xffffffff;

export type ArchiveCheck = { ok: true; inflatedBytes: number } | { ok: false; reason: "notZip" | "tooLarge" };

/** Sums the uncompressed sizes of all entries; `notZip` when the bytes are not a ZIP archive. */
export function checkArchive(bytes: Buffer, maxInflatedBytes: number): ArchiveCheck {
  const end = findEndRecord(bytes);
  if (end < 0) return { ok: false, reason: "notZip" };
  const entries = bytes.readUInt16LE(end + 10);
  let offset = bytes.readUInt32LE(end + 16);
  let total = 0;
  for (let i = 0; i < entries; i++) {
    if (offset + ENTRY_HEADER_SIZE > bytes.length || bytes.readUInt32LE(offset) !== DIRECTORY_ENTRY) {
      return { ok: false, reason: "notZip" };
    }
    const size = bytes.readUInt32LE(offset + 24);
    if (size === ZIP64) return { ok: false, reason: "tooLarge" };
    total += size;
    if (total > maxInflatedBytes) return { ok: false, reason: "tooLarge" };
    offset +=
      ENTRY_HEADER_SIZE +
      bytes.readUInt16LE(offset + 28) +
      bytes.readUInt16LE(offset + 30) +
      bytes.readUInt16LE(offset + 32);
  }
  return { ok: true, inflatedBytes: total };
}

/** The end record sits in the last 22 bytes plus an archive comment of at most 64 KiB. */
function findEndRecord(bytes: Buffer): number {
  const lowest = Math.max(0, bytes.length - END_RECORD_SIZE - 0xffff);
  for (let at = bytes.length - END_RECORD_SIZE; at >= lowest; at--) {
    if (bytes.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  }
  return -1;
}
