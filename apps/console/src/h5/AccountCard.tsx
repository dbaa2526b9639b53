import { useEffect, useState } from "react";
import { type Account, call, type UsagePoint, yuan } from "./api.ts";
import type { Translate, WordKey } from "./i18n.ts";
import { UsageChart } from "./UsageChart.tsx";

function supplyWord(account: Account): WordKey {
  if (account.arrearsCut === 2) return "cutForArrears";
  if (account.energyType === 2) return account.switchStatus === 1 ? "valveOff" : "valveOn";
  return account.switchStatus === 1 ? "supplyOff" : "supplyOn";
}

/** How much brings supply back, in words: the least amount, to the fen. */
export const restoreNeeded = (t: Translate, account: Account) =>
  t(account.energyType === 2 ? "restoreNeededWater" : "restoreNeeded", {
    amount: yuan(account.restore?.leastFen),
  });

/** One meter's account: balance, level, supply state, and its usage over 30 days or 12 months. */
export function AccountCard({
  t,
  token,
  account,
  onRecharge,
}: {
  t: Translate;
  token: string;
  account: Account;
  onRecharge: () => void;
}) {
  const [span, setSpan] = useState<"day" | "month">("day");
  const [points, setPoints] = useState<UsagePoint[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    setPoints(null);
    setFailed(false);
    call<UsagePoint[]>("GET", `usage?accountId=${account.id}&span=${span}`, { token })
      .then((data) => live && setPoints(data))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [account.id, span, token]);
  const unit = account.energyType === 2 ? t("m3") : t("kwh");
  const kind = account.energyType === 2 ? t("water") : t("electric");
  const level = `level${account.alarmLevel}` as WordKey;
  const spanWord = span === "day" ? t("last30") : t("last12");
  return (
    <section className="card account" data-testid="h5-account" aria-label={`${kind} ${account.productCode}`}>
      <header className="account-head">
        <span className="kind">{kind}</span>
        <span className="where">{[account.roomLabel, account.productCode].filter(Boolean).join(" · ")}</span>
      </header>
      <p className="balance-label">{t("balance")}</p>
      <p className={`balance level-${account.alarmLevel}`} data-testid="h5-balance">
        {yuan(account.balanceFen)}
      </p>
      <p className="badges">
        <span className={`badge level-${account.alarmLevel}`} data-testid="h5-level">
          {t(level)}
        </span>
        <span className={`badge ${account.switchStatus === 1 || account.arrearsCut === 2 ? "off" : "on"}`}>
          {t(supplyWord(account))}
        </span>
      </p>
      {account.restore && (
        <p className="message error" data-testid="h5-restore-needed">
          {restoreNeeded(t, account)}
        </p>
      )}
      {account.forecastWarning && !account.restore && (
        <p className="message warning" data-testid="h5-forecast" data-days={account.forecastDays ?? ""}>
          {account.forecastDays === 1
            ? t("forecastToday")
            : t("forecastLeft", { days: account.forecastDays ?? "" })}
        </p>
      )}
      <button type="button" className="small" onClick={onRecharge} data-testid="h5-recharge-open">
        {t("recharge")}
      </button>
      <fieldset className="tabs">
        <legend className="sr-only">{t("usage")}</legend>
        {(["day", "month"] as const).map((s) => (
          <button
            key={s}
            type="button"
            className={s === span ? "tab active" : "tab"}
            aria-pressed={s === span}
            onClick={() => setSpan(s)}
          >
            {s === "day" ? t("last30") : t("last12")}
          </button>
        ))}
      </fieldset>
      {failed && <p className="message error">{t("failed")}</p>}
      {!failed && points === null && <p className="hint">{t("loading")}</p>}
      {points && points.length === 0 && <p className="hint">{t("noUsage")}</p>}
      {points && points.length > 0 && (
        <UsageChart
          points={points}
          unit={unit}
          label={t("chartLabel", { meter: account.productCode, span: spanWord, unit })}
        />
      )}
    </section>
  );
}
