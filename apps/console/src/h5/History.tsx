import { useEffect, useState } from "react";
import { call, type Payment, type Receipt, type Recharge, yuan } from "./api.ts";
import { type Translate, wordOf } from "./i18n.ts";

/** Recharges with their receipts, and payments. */
export function History({ t, token }: { t: Translate; token: string }) {
  const [data, setData] = useState<{ recharges: Recharge[]; payments: Payment[] } | null>(null);
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    call<{ recharges: Recharge[]; payments: Payment[] }>("GET", "history", { token })
      .then(setData)
      .catch(() => setFailed(true));
  }, [token]);
  const open = async (id: string) => {
    try {
      setReceipt(await call<Receipt>("GET", `receipt?id=${id}`, { token }));
    } catch {
      setFailed(true);
    }
  };
  return (
    <section className="card" aria-labelledby="h5-history-title" data-testid="h5-history">
      <h2 id="h5-history-title">{t("history")}</h2>
      {failed && <p className="message error">{t("failed")}</p>}
      {data && data.recharges.length === 0 && <p className="hint">{t("noHistory")}</p>}
      <ul className="list">
        {data?.recharges.map((r) => (
          <li key={r.id}>
            <div>
              <strong>
                {wordOf(t, `type${r.rechargeType}`)} {yuan(r.amountFen)}
              </strong>
              <span className="sub">
                {r.createTime} · {wordOf(t, `method${r.paymentMethod}`)} · {r.productCode}
              </span>
            </div>
            <button type="button" className="secondary small" onClick={() => open(r.id)}>
              {t("receipt")}
            </button>
          </li>
        ))}
      </ul>
      {data && data.payments.length > 0 && (
        <>
          <h3>{t("payments")}</h3>
          <ul className="list">
            {data.payments.map((p) => (
              <li key={p.id}>
                <div>
                  <strong>{yuan(p.amountFen)}</strong>
                  <span className="sub">
                    {p.time} · {wordOf(t, `method${p.paymentMethod}`)} · {wordOf(t, `paymentState${p.state}`)}
                  </span>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
      {receipt && (
        <section className="receipt" aria-labelledby="h5-receipt-title" data-testid="h5-receipt">
          <h3 id="h5-receipt-title">{t("receipt")}</h3>
          <dl>
            <dt>{t("receiptNo")}</dt>
            <dd>{receipt.receiptNo}</dd>
            <dt>{t("owner")}</dt>
            <dd>{receipt.ownerName}</dd>
            <dt>{t("room")}</dt>
            <dd>{receipt.roomName}</dd>
            <dt>{t("meter")}</dt>
            <dd>{receipt.productCode}</dd>
            <dt>{t("amount")}</dt>
            <dd>{yuan(receipt.amountFen)}</dd>
            <dt>{t("balanceAfter")}</dt>
            <dd>{yuan(receipt.balanceAfterFen)}</dd>
            <dt>{t("method")}</dt>
            <dd>{wordOf(t, `method${receipt.paymentMethod}`)}</dd>
            <dt>{t("time")}</dt>
            <dd>{receipt.createTime}</dd>
            <dt>{t("operator")}</dt>
            <dd>{receipt.operator || "-"}</dd>
          </dl>
          <button type="button" className="secondary" onClick={() => setReceipt(null)}>
            {t("close")}
          </button>
        </section>
      )}
    </section>
  );
}
