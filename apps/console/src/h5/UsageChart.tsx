import type { UsagePoint } from "./api.ts";

const WIDTH = 320;
const HEIGHT = 150;
const TOP = 12;
const BOTTOM = 22;

/**
 * Usage as bars in plain SVG (a few hundred bytes instead of a chart library). Screen readers get
 * the title and a table of the values; the bars are drawing only.
 */
export function UsageChart({ points, label, unit }: { points: UsagePoint[]; label: string; unit: string }) {
  const values = points.map((p) => Number(p.usage));
  const max = Math.max(...values, 0) || 1;
  const slot = WIDTH / Math.max(points.length, 1);
  const bar = Math.max(Math.min(slot * 0.7, 28), 2);
  const plot = HEIGHT - TOP - BOTTOM;
  const short = (period: string) => (period.length === 10 ? period.slice(5) : period);
  return (
    <figure className="chart" data-testid="usage-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label} preserveAspectRatio="none">
        <title>{label}</title>
        <line x1="0" y1={HEIGHT - BOTTOM} x2={WIDTH} y2={HEIGHT - BOTTOM} className="axis" />
        {points.map((p, i) => {
          const h = (Number(p.usage) / max) * plot;
          return (
            <rect
              key={p.period}
              x={i * slot + (slot - bar) / 2}
              y={HEIGHT - BOTTOM - h}
              width={bar}
              height={Math.max(h, 0.5)}
              className="bar"
              data-testid="usage-bar"
            >
              <title>{`${p.period}: ${p.usage} ${unit}`}</title>
            </rect>
          );
        })}
        {points.length > 0 && (
          <>
            <text x="2" y={HEIGHT - 6} className="tick">
              {short(points[0]!.period)}
            </text>
            <text x={WIDTH - 2} y={HEIGHT - 6} className="tick" textAnchor="end">
              {short(points.at(-1)!.period)}
            </text>
            <text x="2" y={TOP - 2} className="tick">{`${max} ${unit}`}</text>
          </>
        )}
      </svg>
      <table className="sr-only">
        <caption>{label}</caption>
        <tbody>
          {points.map((p) => (
            <tr key={p.period}>
              <th scope="row">{p.period}</th>
              <td>{p.usage}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
