import { useT } from "../../../i18n/index.tsx";

/**
 * Whether a meter supplies, as its relay or valve last stood (SWITCH_STATUS 0 合闸, 1 拉闸): a tag
 * that says it in words, cut off in the arrears colours so a desk sees it before taking money.
 */
export function SupplyTag({ status }: { status: 0 | 1 }) {
  const t = useT();
  return (
    <span
      className={`counter-level ${status === 1 ? "counter-level-3" : "counter-supply-on"}`}
      data-supply={status}
      data-testid="counter-hit-supply"
    >
      {t(`counter.supply.${status}`)}
    </span>
  );
}
