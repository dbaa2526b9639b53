import { type FormEvent, useEffect, useState } from "react";
import { restoreNeeded } from "./AccountCard.tsx";
import {
  type Account,
  call,
  fenOf,
  type NewAlipayOrder,
  type NewOrder,
  OwnerApiError,
  type PayChannel,
  type PayOptions,
  yuan,
} from "./api.ts";
import { FormMessage, type FormNote } from "./form-parts.tsx";
import type { Translate, WordKey } from "./i18n.ts";
import { alipayReturnUrl, alipayTradeType, offeredChannels, surroundingsOf } from "./pay-channels.ts";

interface Bridge {
  invoke(name: string, params: unknown, done: (answer: { err_msg?: string }) => void): void;
}

/** WeChat's in-app bridge, once it is ready (it may announce itself after the page loaded). */
function wechatBridge(): Promise<Bridge | undefined> {
  const found = (window as { WeixinJSBridge?: Bridge }).WeixinJSBridge;
  if (found) return Promise.resolve(found);
  return new Promise((resolve) => {
    const ready = () => resolve((window as { WeixinJSBridge?: Bridge }).WeixinJSBridge);
    document.addEventListener("WeixinJSBridgeReady", ready, { once: true });
    setTimeout(ready, 3000);
  });
}

const OFF: PayOptions = { enabled: false, maxAmountFen: "0", presets: [] };

/** The form's title: the one channel offered, or both. */
const TITLE: Record<string, WordKey> = {
  wxpay: "rechargeTitle",
  alipay: "rechargeTitleAlipay",
  "wxpay,alipay": "rechargeTitleBoth",
};

/**
 * Recharging one account with WeChat Pay or Alipay (those the property has switched on, and of
 * them the ones that work where the page runs): a preset or a free amount within the channel's
 * limit (checked here and again by the server). Inside WeChat the order is paid through
 * WeixinJSBridge on this page; Alipay on a phone sends the owner to its cashier, which sends them
 * back to the result page; on a desktop the result page shows the order's QR code. The result
 * page follows the order afterwards.
 */
export function Recharge({
  t,
  token,
  account,
  onOrdered,
  onBack,
}: {
  t: Translate;
  token: string;
  account: Account;
  onOrdered: (outTradeNo: string, channel: PayChannel) => void;
  onBack: () => void;
}) {
  const [all, setAll] = useState<Record<PayChannel, PayOptions> | null>(null);
  const [chosen, setChosen] = useState<PayChannel | null>(null);
  const [amount, setAmount] = useState("");
  const [note, setNote] = useState<FormNote>(null);
  const [busy, setBusy] = useState(false);
  const where = surroundingsOf(navigator.userAgent);
  useEffect(() => {
    const optionsOf = (channel: PayChannel) =>
      call<PayOptions>("GET", `${channel}/options`, { token }).catch(() => undefined);
    Promise.all([optionsOf("wxpay"), optionsOf("alipay")]).then(([wxpay, alipay]) => {
      if (!wxpay && !alipay) setNote({ text: t("failed"), error: true });
      setAll({ wxpay: wxpay ?? OFF, alipay: alipay ?? OFF });
    });
  }, [token, t]);
  const channels = all
    ? offeredChannels(where, { wxpay: all.wxpay.enabled, alipay: all.alipay.enabled })
    : [];
  const channel = chosen && channels.includes(chosen) ? chosen : channels[0];
  const options = all ? (channel ? all[channel] : OFF) : null;

  const fen = fenOf(amount);
  const over = options !== null && fen !== undefined && fen > BigInt(options.maxAmountFen);
  const problem =
    amount.trim() === ""
      ? ""
      : fen === undefined
        ? t("amountInvalid")
        : over
          ? t("amountOver", { max: yuan(options?.maxAmountFen) })
          : "";

  const pay = async (event: FormEvent) => {
    event.preventDefault();
    if (fen === undefined || over) return;
    setBusy(true);
    setNote(null);
    try {
      if (channel === "alipay") {
        const tradeType = alipayTradeType(where);
        const order = await call<NewAlipayOrder>("POST", "alipay/order", {
          token,
          body: {
            accountId: account.id,
            amount: yuan(fen.toString()),
            channel: tradeType,
            ...(tradeType === "wap" ? { returnUrl: alipayReturnUrl(location) } : {}),
          },
        });
        // Off to Alipay's cashier, which sends the owner back to the result page.
        if (tradeType === "wap" && order.payUrl) return location.assign(order.payUrl);
        return onOrdered(order.outTradeNo, "alipay");
      }
      const order = await call<NewOrder>("POST", "wxpay/order", {
        token,
        body: { accountId: account.id, amount: yuan(fen.toString()) },
      });
      if (order.payParams) {
        const bridge = await wechatBridge();
        if (bridge) {
          const answer = await new Promise<{ err_msg?: string }>((resolve) =>
            bridge.invoke("getBrandWCPayRequest", order.payParams, resolve),
          );
          if (answer.err_msg === "get_brand_wcpay_request:cancel") {
            setNote({ text: t("payCancelled"), error: true });
            return;
          }
        }
      }
      onOrdered(order.outTradeNo, "wxpay");
    } catch (error) {
      setNote({ text: error instanceof OwnerApiError ? error.message : t("failed"), error: true });
    } finally {
      setBusy(false);
    }
  };

  const kind = account.energyType === 2 ? t("water") : t("electric");
  // Cut for arrears: the whole-yuan amount that brings supply back comes first, within the limit.
  const offer = account.restore ? (BigInt(account.restore.offerFen) / 100n).toString() : undefined;
  const offered =
    offer && options && BigInt(offer) * 100n <= BigInt(options.maxAmountFen) ? offer : undefined;
  const presets = [
    ...(offered
      ? [
          {
            value: offered,
            restore: true,
            label: t(account.energyType === 2 ? "restoreWaterPreset" : "restorePreset", { amount: offered }),
          },
        ]
      : []),
    ...(options?.presets ?? [])
      .filter((preset) => preset !== offered)
      .map((preset) => ({ value: preset, restore: false, label: preset })),
  ];
  return (
    <form className="card" onSubmit={pay} noValidate data-testid="h5-recharge">
      <h2>{t(TITLE[channels.join(",")] ?? "rechargeTitle")}</h2>
      <p className="hint">
        {[kind, account.roomLabel, account.productCode].filter(Boolean).join(" · ")} · {t("balance")}{" "}
        {yuan(account.balanceFen)}
      </p>
      {account.restore && (
        <p className="message error" data-testid="h5-restore-needed">
          {restoreNeeded(t, account)}
        </p>
      )}
      {all && channels.length === 0 && (
        <p className="message error">{t(where === "alipay" ? "alipayOff" : "wxpayOff")}</p>
      )}
      {channels.length > 1 && (
        <fieldset className="presets channels">
          <legend>{t("payChannel")}</legend>
          {channels.map((one) => (
            <button
              key={one}
              type="button"
              className={`tab${one === channel ? " active" : ""}`}
              aria-pressed={one === channel}
              onClick={() => setChosen(one)}
              data-testid={`h5-channel-${one}`}
            >
              {t(one === "alipay" ? "channelAlipay" : "channelWxpay")}
            </button>
          ))}
        </fieldset>
      )}
      {options?.enabled && (
        <>
          <fieldset className="presets">
            <legend>{t("presetAmounts")}</legend>
            {presets.map((preset) => (
              <button
                key={preset.label}
                type="button"
                className={`tab${preset.restore ? " restore" : ""}${amount === preset.value ? " active" : ""}`}
                aria-pressed={amount === preset.value}
                onClick={() => setAmount(preset.value)}
                data-testid="h5-preset"
              >
                {preset.label}
              </button>
            ))}
          </fieldset>
          <div className="field">
            <label htmlFor="h5-amount">{t("otherAmount")}</label>
            <input
              id="h5-amount"
              data-testid="h5-amount"
              inputMode="decimal"
              autoComplete="off"
              value={amount}
              aria-invalid={problem !== ""}
              aria-describedby={problem ? "h5-amount-problem" : undefined}
              onChange={(e) => setAmount(e.target.value)}
            />
            {problem && (
              <p id="h5-amount-problem" className="message error">
                {problem}
              </p>
            )}
          </div>
          <button type="submit" disabled={busy || fen === undefined || over} data-testid="h5-pay">
            {t(channel === "alipay" ? "payNowAlipay" : "payNow", {
              amount: fen === undefined ? "-" : yuan(fen.toString()),
            })}
          </button>
        </>
      )}
      <FormMessage note={note} />
      <button type="button" className="link" onClick={onBack}>
        {t("back")}
      </button>
    </form>
  );
}
