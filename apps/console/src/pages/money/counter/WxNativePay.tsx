import { QRCode, Result, Space, Typography } from "antd";
import { useEffect, useRef, useState } from "react";
import { useT } from "../../../i18n/index.tsx";
import { loadWxpayOrder, type WxpayOrder } from "../money-calls.ts";

/** How often the counter asks whether the owner has paid. */
const FOLLOW_MS = 2_000;

interface Props {
  order: WxpayOrder;
  tenantId?: string;
  /** The order was paid and its recharge booked. */
  onPaid: (order: WxpayOrder) => void;
}

/**
 * A Native order at the counter: its QR code (and the same link as text, for a screen reader or a
 * copy), followed until WeChat Pay's notification (or the query job) has booked the recharge.
 */
export function WxNativePay({ order, tenantId, onPaid }: Props) {
  const t = useT();
  const [current, setCurrent] = useState(order);
  // The latest callback, without restarting the follow when the dialog re-renders.
  const paid = useRef(onPaid);
  paid.current = onPaid;
  // The drawn code is an image (role img) and gets its name here: the component takes none.
  const drawing = useRef<HTMLDivElement>(null);
  const codeName = `${t("wxpay.native.scan")}: ${order.outTradeNo}`;
  useEffect(() => {
    drawing.current?.querySelector("svg, canvas")?.setAttribute("aria-label", codeName);
  });
  useEffect(() => {
    let live = true;
    const timer = setInterval(() => {
      loadWxpayOrder(order.id, tenantId)
        .then((latest) => {
          if (!live) return;
          setCurrent(latest);
          if (String(latest.state) === "1") {
            live = false;
            clearInterval(timer);
            paid.current(latest);
          }
        })
        // A missed look is retried at the next tick.
        .catch(() => undefined);
    }, FOLLOW_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [order.id, tenantId]);
  const state = String(current.state);
  if (state === "2" || state === "3")
    return <Result status="warning" title={t("wxpay.native.closed")} subTitle={current.outTradeNo} />;
  return (
    <Space orientation="vertical" align="center" style={{ width: "100%" }} data-testid="wxpay-native">
      <Typography.Text strong>{t("wxpay.native.scan")}</Typography.Text>
      <div ref={drawing}>
        <QRCode value={order.codeUrl} size={200} type="svg" bordered={false} />
      </div>
      <Typography.Text>
        {order.amount} {t("counter.form.yuan")} · {order.outTradeNo}
      </Typography.Text>
      <Typography.Text copyable={{ text: order.codeUrl }}>
        {t("wxpay.native.link")}: <span data-testid="wxpay-code-url">{order.codeUrl}</span>
      </Typography.Text>
      <Typography.Text type="secondary" aria-live="polite">
        {state === "1" ? t("wxpay.native.paid") : t("wxpay.native.waiting")}
      </Typography.Text>
    </Space>
  );
}
