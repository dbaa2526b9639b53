import { Table } from "antd";
import { EMPTY_VALUE } from "../../../crud/view-values.ts";
import { useT } from "../../../i18n/index.tsx";
import { bandNames } from "./band-look.ts";
import { DayBar } from "./DayBar.tsx";
import { parseArray, parseDates, parseSlots, parseTiers, parseWindows } from "./scheme-json.ts";

/**
 * How the view dialog reads a scheme's JSON fields: the same facts as the editors, as text, with
 * nothing to type into (the family's view pattern).
 */
interface ViewerProps {
  value?: unknown;
}

const stretch = (start: string, end: string) => `${start}–${end}`;

/** The ladder's tiers: each bound and price, the last tier open. */
export function LadderView({ value }: ViewerProps) {
  const t = useT();
  if (parseArray(value).length === 0) return <>{EMPTY_VALUE}</>;
  const tiers = parseTiers(value).map((tier, index) => ({ ...tier, index }));
  return (
    <Table
      size="small"
      pagination={false}
      rowKey="index"
      dataSource={tiers}
      columns={[
        {
          key: "tier",
          title: t("scheme.ladder.tier"),
          render: (_, row) => t("scheme.ladder.nth", { n: row.index + 1 }),
        },
        {
          key: "limit",
          title: t("scheme.ladder.limitTitle"),
          render: (_, row) => (row.limit === null ? t("scheme.ladder.open") : row.limit),
        },
        { key: "price", title: t("scheme.ladder.priceTitle"), dataIndex: "price" },
      ]}
    />
  );
}

/** The day's time-of-use slots, one a line with its band, above the day as they cover it. */
export function TouPeriodsView({ value }: ViewerProps) {
  const t = useT();
  const slots = parseSlots(value);
  if (slots.length === 0) return <>{t("scheme.tou.none")}</>;
  // One slot a line (the value's cell keeps line breaks), then the day as the slots cover it.
  const lines = slots.map((s) => `${stretch(s.start, s.end)} ${s.band ? t(bandNames[s.band]) : EMPTY_VALUE}`);
  return (
    <>
      <div>{lines.join("\n")}</div>
      <DayBar slots={slots} />
    </>
  );
}

/** The protection windows of the day. */
export function ProtectTimesView({ value }: ViewerProps) {
  const t = useT();
  const windows = parseWindows(value);
  if (windows.length === 0) return <>{t("scheme.protect.none")}</>;
  return <>{windows.map((w) => stretch(w.start, w.end)).join(", ")}</>;
}

/** The protected dates, and every weekend when it is protected. */
export function ProtectDatesView({ value }: ViewerProps) {
  const t = useT();
  const { weekend, dates } = parseDates(value);
  if (!weekend && dates.length === 0) return <>{t("scheme.dates.none")}</>;
  return <>{[...(weekend ? [t("scheme.dates.weekend")] : []), ...dates].join(", ")}</>;
}
