import type { readingCorrectionsZh } from "./reading-corrections.zh.ts";

/** English texts of entering reads by hand and voiding reads on the reading screens. */
export const readingCorrectionsEn: Record<keyof typeof readingCorrectionsZh, string> = {
  "readingFix.add": "Enter a read",
  "readingFix.addTitle": "Enter a read by hand",
  "readingFix.meter": "Meter",
  "readingFix.meterRequired": "Choose a meter",
  "readingFix.total": "Total register",
  "readingFix.totalRequired": "The register is required",
  "readingFix.registerFormat": "A non-negative number with at most two decimals",
  "readingFix.bands": "Tip / peak / flat / valley (optional)",
  "readingFix.tip": "Tip",
  "readingFix.peak": "Peak",
  "readingFix.peace": "Flat",
  "readingFix.low": "Valley",
  "readingFix.time": "Read at",
  "readingFix.timeHint": "Now when empty",
  "readingFix.added": "Read entered; the day's usage was recomputed",
  "readingFix.void": "Void",
  "readingFix.voidTitle": "Void the read of {meter} at {time}",
  "readingFix.reason": "Reason",
  "readingFix.reasonRequired": "A reason is required",
  "readingFix.voided": "Read voided; the day's usage was recomputed",
  "readingFix.voidedTag": "Voided",
  "readingFix.import": "Import",
  "readingFix.importTitle": "Import reads taken on site",
  "readingFix.importHint":
    "One read per row: meter number, total register, read time; a read already present for the same meter and time is not imported again",
  "readingFix.imported": "Entered",
  "readingFix.voidedBy": "Voided by {user} at {time}: {reason}",
};
