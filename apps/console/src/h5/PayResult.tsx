import { lazy, Suspense, useEffect, useState } from "react";
import { call, type FollowedOrder, OwnerApiError, type PayChannel, yuan } from "./api.ts";
import type { Translate, WordKey } from "./i18n.ts";

const PayQr = lazy(() => import("./PayQr.tsx"));

/** How often the page asks about the order, and how long it follows a restore after booking. */
const POLL_MS = 1500;
const RESTORE_FOLLOW_MS = 5 * 60_000;
const FINAL_COMMAND = new Set(["success", "fail", "timeout"]);
/** An unpaid Alipay order is asked of Alipay on the first look and every this many looks after. */
const ALIPAY_QUERY_EVERY = 5;

/** The words that differ between the channels. */
const CHANNEL_WORDS: Record<PayChannel, Record<"title" | "scan" | "qr" | "demo", WordKey>> = {
  wxpay: { title: "rechargeTitle", scan: "scanToPay", qr: "qrLabel", demo: "demoPay" },
  alipay: {
    title: "rechargeTitleAlipay",
    scan: "scanToPayAlipay",
    qr: "qrLabelAlipay",
    demo: "demoPayAlipay",
  },
};

type Outcome = "missing" | "closed" | "failed" | "expired" | undefined;

/** Whether the page has seen all there is: an end state, or the booking with supply settled. */
function settled(order: FollowedOrder, bookedAt: number | undefined): boolean {
  if (order.state === 2 || order.state === 3) return true;
  if (!order.booked) return false;
  const restoring = order.arrearsCut !== 0 || (order.restore && !FINAL_COMMAND.has(order.restore.state));
  if (!restoring) return true;
  if (order.restore && FINAL_COMMAND.has(order.restore.state)) return true;
  return bookedAt !== undefined && Date.now() - bookedAt > RESTORE_FOLLOW_MS;
}

/**
 * The result page of one order (its out_trade_no is in the address, so a reload resumes): follows
 * it every 1.5 s while shown, until booked (then the receipt and the new balance) and, for an
 * account cut off for arrears, until its restore command is done; closed, failed and expired
 * orders say so. A Native or Alipay QR order still unpaid shows its QR code (and the demo's
 * cashier link). An Alipay order is also asked of Alipay now and then while unpaid: the owner may
 * be back from its cashier before its notification arrives.
 */
export function PayResult({
  t,
  token,
  outTradeNo,
  channel,
  onDone,
}: {
  t: Translate;
  token: string;
  outTradeNo: string;
  channel: PayChannel;
  onDone: () => void;
}) {
  const words = CHANNEL_WORDS[channel];
  const [order, setOrder] = useState<FollowedOrder | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(undefined);
  const [trouble, setTrouble] = useState(false);

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let bookedAt: number | undefined;
    let looks = 0;
    const poll = async () => {
      const query = channel === "alipay" && looks++ % ALIPAY_QUERY_EVERY === 0 ? "?query=1" : "";
      try {
        const seen = await call<FollowedOrder>(
          "GET",
          `${channel}/order/${encodeURIComponent(outTradeNo)}${query}`,
          { token },
        );
        if (!live) return;
        setOrder(seen);
        setTrouble(false);
        if (seen.booked && bookedAt === undefined) bookedAt = Date.now();
        if (seen.state === 2) return setOutcome("closed");
        if (seen.state === 3) return setOutcome("failed");
        if (seen.state === 0 && Date.parse(seen.expireTime) < Date.now()) return setOutcome("expired");
        if (settled(seen, bookedAt)) return;
      } catch (error) {
        if (!live) return;
        if (error instanceof OwnerApiError && error.status === 404) return setOutcome("missing");
        setTrouble(true);
      }
      timer = setTimeout(poll, POLL_MS);
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [outTradeNo, token, channel]);

  const amount = order ? yuan(order.amountFen) : "";
  return (
    <section className="card" data-testid="h5-result" aria-labelledby="h5-result-title">
      <h2 id="h5-result-title">{order?.booked ? t("paidTitle") : t(words.title)}</h2>
      <p className="sub">
        {t("outTradeNo")}: {outTradeNo}
        {order ? ` · ${t("amount")} ${amount}` : ""}
      </p>
      {!order && !outcome && <p className="hint">{t("loading")}</p>}
      {trouble && <p className="message error">{t("failed")}</p>}
      {outcome && (
        <p className="message error" role="alert" data-testid="h5-result-end">
          {t(`order${outcome[0]!.toUpperCase()}${outcome.slice(1)}` as WordKey)}
        </p>
      )}
      {order && !outcome && order.state === 0 && (
        <div className="waiting" role="status">
          <p>{t("waitingPay")}</p>
          {order.codeUrl && (
            <>
              <p className="hint">{t(words.scan)}</p>
              <div className="qr">
                <Suspense fallback={<p className="hint">{t("loading")}</p>}>
                  <PayQr value={order.codeUrl} label={t(words.qr, { amount })} />
                </Suspense>
              </div>
            </>
          )}
          {order.demoPayUrl && (
            <a
              className="link"
              href={order.demoPayUrl}
              target="_blank"
              rel="noopener"
              data-testid="h5-demo-pay"
            >
              {t(words.demo)}
            </a>
          )}
        </div>
      )}
      {order && order.state === 1 && !order.booked && (
        <p className="hint" role="status">
          {t("booking")}
        </p>
      )}
      {order?.booked && order.receipt && (
        <div className="receipt" data-testid="h5-paid">
          <dl>
            <dt>{t("rechargeId")}</dt>
            <dd>{order.receipt.receiptNo || order.receipt.id}</dd>
            <dt>{t("amount")}</dt>
            <dd data-testid="h5-paid-amount">{yuan(order.receipt.amountFen)}</dd>
            <dt>{t("time")}</dt>
            <dd>{order.receipt.createTime}</dd>
            <dt>{t("newBalance")}</dt>
            <dd data-testid="h5-new-balance">{yuan(order.balanceFen)}</dd>
          </dl>
        </div>
      )}
      {order?.booked && (order.restore || order.arrearsCut !== 0) && (
        <div className="restore" role="status" data-testid="h5-restore">
          <h3>{t("restoreTitle")}</h3>
          <p>
            {!order.restore
              ? t("restoreWaiting")
              : order.restore.state === "success"
                ? t("restoreDone")
                : order.restore.state === "fail"
                  ? t("restoreFailed")
                  : t(`commandState_${order.restore.state}` as WordKey)}
          </p>
        </div>
      )}
      <button
        type="button"
        className={order?.booked || outcome ? "result-back" : "result-back secondary"}
        onClick={onDone}
      >
        {t("backHome")}
      </button>
    </section>
  );
}
