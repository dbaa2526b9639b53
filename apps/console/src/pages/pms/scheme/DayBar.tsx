import { Space, Typography, theme } from "antd";
import { useT } from "../../../i18n/index.tsx";
import { bandColours, bandNames } from "./band-look.ts";
import { BANDS, dayCoverage, MINUTES_PER_DAY, type Slot, timeOf } from "./scheme-json.ts";

const TICKS = [0, 3, 6, 9, 12, 15, 18, 21, 24];

/**
 * The 24 hours as the slots cover them: each stretch in its band's colour, uncovered time hatched
 * and overlapping time in red, so a gap or a clash is seen before saving.
 */
export function DayBar({ slots }: { slots: readonly Slot[] }) {
  const t = useT();
  const { token } = theme.useToken();
  const colours = bandColours(token);
  const segments = dayCoverage(slots);
  const gaps = segments.filter((s) => s.band === null && !s.overlap);
  const overlaps = segments.filter((s) => s.overlap);
  const minutes = (list: typeof segments) => list.reduce((sum, s) => sum + s.to - s.from, 0);
  const hatch = `repeating-linear-gradient(45deg, ${token.colorFillSecondary} 0 6px, transparent 6px 12px)`;
  const describe = (s: (typeof segments)[number]) =>
    `${timeOf(s.from)}–${timeOf(s.to)} ${
      s.overlap ? t("scheme.tou.overlapShort") : s.band ? t(bandNames[s.band]) : t("scheme.tou.gapShort")
    }`;

  return (
    <div data-testid="tou-day-bar" data-gap-minutes={minutes(gaps)} data-overlap-minutes={minutes(overlaps)}>
      <div
        role="img"
        aria-label={segments.map(describe).join("; ")}
        style={{
          position: "relative",
          height: 24,
          borderRadius: token.borderRadiusSM,
          border: `1px solid ${token.colorBorder}`,
          overflow: "hidden",
          background: hatch,
        }}
      >
        {segments
          .filter((s) => s.overlap || s.band)
          .map((s) => (
            <div
              key={s.from}
              title={describe(s)}
              style={{
                position: "absolute",
                top: 0,
                bottom: 0,
                left: `${(s.from / MINUTES_PER_DAY) * 100}%`,
                width: `${((s.to - s.from) / MINUTES_PER_DAY) * 100}%`,
                background: s.overlap ? token.colorErrorBg : s.band ? colours[s.band] : "transparent",
                outline: s.overlap ? `2px solid ${token.colorError}` : undefined,
                outlineOffset: -2,
              }}
            />
          ))}
      </div>
      <div
        style={{
          position: "relative",
          height: 18,
          fontSize: token.fontSizeSM,
          color: token.colorTextSecondary,
        }}
      >
        {TICKS.map((hour) => (
          <span
            key={hour}
            style={{
              position: "absolute",
              left: `${(hour / 24) * 100}%`,
              transform: hour === 0 ? undefined : hour === 24 ? "translateX(-100%)" : "translateX(-50%)",
            }}
          >
            {hour}
          </span>
        ))}
      </div>
      <Space size="middle" wrap>
        {BANDS.map((band) => (
          <Space key={band} size={4}>
            <span
              style={{
                display: "inline-block",
                width: 12,
                height: 12,
                borderRadius: 2,
                background: colours[band],
              }}
            />
            <Typography.Text>{t(bandNames[band])}</Typography.Text>
          </Space>
        ))}
        <Space size={4}>
          <span
            style={{
              display: "inline-block",
              width: 12,
              height: 12,
              borderRadius: 2,
              background: hatch,
              border: `1px solid ${token.colorBorder}`,
            }}
          />
          <Typography.Text type="secondary">{t("scheme.tou.gapShort")}</Typography.Text>
        </Space>
      </Space>
    </div>
  );
}
