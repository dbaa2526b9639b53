import { useEffect, useState } from "react";
import { call, type Notices } from "./api.ts";
import { type Translate, wordOf } from "./i18n.ts";

/** Balance alarms (low, severely low, arrears) and the supply cuts and restores for arrears. */
export function NoticeList({ t, token }: { t: Translate; token: string }) {
  const [notices, setNotices] = useState<Notices | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    call<Notices>("GET", "notices", { token })
      .then(setNotices)
      .catch(() => setFailed(true));
  }, [token]);
  const items = notices
    ? [
        ...notices.alarms.map((a) => ({
          key: `a${a.time}${a.productCode}${a.kind}`,
          time: a.time,
          text: `${wordOf(t, `alarm_${a.kind}`)}${a.status === 2 ? ` · ${t("restored")}` : ""}`,
          where: [a.room, a.productCode],
        })),
        ...notices.supply.map((s) => ({
          key: `s${s.time}${s.productCode}${s.kind}`,
          time: s.time,
          text: `${wordOf(t, `supply_${s.kind}`)} · ${wordOf(t, `commandState_${s.state}`)}`,
          where: [s.room, s.productCode],
        })),
      ].sort((x, y) => y.time.localeCompare(x.time))
    : [];
  return (
    <section className="card" aria-labelledby="h5-notices-title" data-testid="h5-notices">
      <h2 id="h5-notices-title">{t("notices")}</h2>
      {failed && <p className="message error">{t("failed")}</p>}
      {notices && items.length === 0 && <p className="hint">{t("noNotices")}</p>}
      <ul className="list">
        {items.map((item) => (
          <li key={item.key}>
            <div>
              <strong>{item.text}</strong>
              <span className="sub">{[item.time, ...item.where].filter(Boolean).join(" · ")}</span>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
