/**
 * WCAG 2.1 contrast arithmetic for the theme colour: text needs 4.5:1 against what it sits on
 * (success criterion 1.4.3), so a colour the user picks is darkened or lightened, keeping its hue,
 * where it carries text.
 */

/** The contrast ratio AA asks of normal-size text. */
export const AA_TEXT = 4.5;

type Rgb = [number, number, number];

function parseHex(hex: string): Rgb {
  const digits = hex.replace("#", "");
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join("") : digits.slice(0, 6);
  const value = Number.parseInt(full, 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

const toHex = (rgb: Rgb) => `#${rgb.map((part) => Math.round(part).toString(16).padStart(2, "0")).join("")}`;

/** Relative luminance, as WCAG defines it. */
export function luminance(hex: string): number {
  const [r, g, b] = parseHex(hex).map((part) => {
    const channel = part / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

function toHsl([r, g, b]: Rgb): Rgb {
  const [red, green, blue] = [r / 255, g / 255, b / 255];
  const max = Math.max(red, green, blue);
  const min = Math.min(red, green, blue);
  const lightness = (max + min) / 2;
  if (max === min) return [0, 0, lightness];
  const delta = max - min;
  const saturation = lightness > 0.5 ? delta / (2 - max - min) : delta / (max + min);
  const hue =
    max === red
      ? (green - blue) / delta + (green < blue ? 6 : 0)
      : max === green
        ? (blue - red) / delta + 2
        : (red - green) / delta + 4;
  return [hue / 6, saturation, lightness];
}

function fromHsl([hue, saturation, lightness]: Rgb): Rgb {
  if (saturation === 0) return [lightness * 255, lightness * 255, lightness * 255];
  const q = lightness < 0.5 ? lightness * (1 + saturation) : lightness + saturation - lightness * saturation;
  const p = 2 * lightness - q;
  const channel = (t: number) => {
    const x = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    if (x < 1 / 6) return p + (q - p) * 6 * x;
    if (x < 1 / 2) return q;
    if (x < 2 / 3) return p + (q - p) * (2 / 3 - x) * 6;
    return p;
  };
  return [channel(hue + 1 / 3) * 255, channel(hue) * 255, channel(hue - 1 / 3) * 255];
}

/**
 * The colour itself when it already reaches `ratio` against `against`; otherwise the nearest
 * shade of the same hue and saturation that does, darker or lighter as `against` demands.
 */
export function shadeFor(color: string, against: string, ratio = AA_TEXT): string {
  const start = toHex(parseHex(color));
  if (contrastRatio(start, against) >= ratio) return start;
  const [hue, saturation, lightness] = toHsl(parseHex(start));
  const darken = luminance(against) > 0.18;
  for (let step = 1; step <= 100; step++) {
    const next = lightness + (darken ? -step : step) / 100;
    if (next < 0 || next > 1) break;
    const candidate = toHex(fromHsl([hue, saturation, next]));
    if (contrastRatio(candidate, against) >= ratio) return candidate;
  }
  return darken ? "#000000" : "#ffffff";
}
