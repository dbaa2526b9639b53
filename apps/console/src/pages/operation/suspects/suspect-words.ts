import type { MessageKey, useT } from "../../../i18n/index.tsx";
import type { EvidenceFigure, SuspectState } from "./suspect-calls.ts";

/** Solid state colours with white text (4.5:1 contrast), as the other flow screens. */
export const STATE_COLOURS: Record<SuspectState, string | undefined> = {
  new: "#0050b3",
  visiting: "#ad4e00",
  confirmed: "#a8071a",
  dismissed: "#595959",
};

/** The detectors name their figures in English; each has its words in both languages. */
const FIGURE_KEYS: Record<string, MessageKey> = {
  "energy while tripped": "suspects.figure.energyWhileTripped",
  "hours tripped": "suspects.figure.hoursTripped",
  "energy drawn, not counted": "suspects.figure.energyNotCounted",
  hours: "suspects.figure.hours",
  "usage per day before": "suspects.figure.usageBefore",
  "usage per day now": "suspects.figure.usageNow",
  "peers now against before": "suspects.figure.peers",
  "node loss rise per day": "suspects.figure.lossRise",
  "nights in a row": "suspects.figure.nights",
  "least night flow": "suspects.figure.leastFlow",
  "litres a day at that rate": "suspects.figure.litres",
  "cover openings": "suspects.figure.coverOpenings",
  "reverse energy alarms": "suspects.figure.reverseEnergy",
  "days with load, no energy": "suspects.figure.loadDays",
  "highest power": "suspects.figure.highestPower",
  "energy counted": "suspects.figure.energyCounted",
};

const UNIT_KEYS: Record<string, MessageKey> = {
  "per day": "suspects.unit.perDay",
  ratio: "suspects.unit.ratio",
  nights: "suspects.unit.nights",
  times: "suspects.unit.times",
  days: "suspects.unit.days",
};

/** A figure's words; a figure of one day (a day's power, a day's energy) is headed by its day. */
export const figureName = (t: ReturnType<typeof useT>, figure: EvidenceFigure) => {
  const key = FIGURE_KEYS[figure.name];
  const name = key ? t(key) : figure.name;
  return figure.day ? `${figure.day} ${name}` : name;
};

/** A figure's key among its suspect's figures: a name repeats once per day. */
export const figureKey = (figure: EvidenceFigure) => `${figure.day ?? ""} ${figure.name}`;

export function figureValue(t: ReturnType<typeof useT>, figure: EvidenceFigure): string {
  const unit = UNIT_KEYS[figure.unit];
  return `${figure.value} ${unit ? t(unit) : figure.unit}`.trim();
}

export const figureText = (t: ReturnType<typeof useT>, figure: EvidenceFigure) =>
  `${figureName(t, figure)} ${figureValue(t, figure)}`;
