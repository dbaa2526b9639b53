import { useT } from "../../../i18n/index.tsx";

/** ALARM_LEVEL 0 normal, 1 low, 2 severely low, 3 arrears; anything else reads as normal. */
const levelOf = (level: number): 0 | 1 | 2 | 3 => (level === 1 || level === 2 || level === 3 ? level : 0);

/**
 * A balance level as a coloured tag that also says it in words (colour is never the only signal).
 * The colours are fixed dark-on-light pairs (see money-counter.css) so they meet 4.5:1 in every theme.
 */
export function LevelTag({ level, noAccount = false }: { level: number; noAccount?: boolean }) {
  const t = useT();
  // An owner without an open account has no balance to be normal about.
  if (noAccount)
    return (
      <span className="counter-level counter-level-none" data-level="none">
        {t("counter.noAccount")}
      </span>
    );
  const known = levelOf(level);
  return (
    <span className={`counter-level counter-level-${known}`} data-level={known}>
      {t(`counter.level.${known}`)}
    </span>
  );
}
