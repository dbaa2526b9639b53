import { Descriptions, Typography } from "antd";
import { useT } from "../../../../i18n/index.tsx";
import type { ClosingPreview } from "./account-calls.ts";

/**
 * The settlement a closing would book, shown before the operator confirms: whose account, the last
 * settled and the final reading, the usage between them and its charge, the balance it leaves, and
 * so what is paid back or owed.
 */
export function ClosingPreviewView({ preview }: { preview: ClosingPreview }) {
  const t = useT();
  const owes = preview.debt !== "0.00";
  const figure = (text: string, testId: string) => (
    <span className="counter-code" data-testid={testId}>
      {text}
    </span>
  );
  return (
    <Descriptions
      column={1}
      size="small"
      bordered
      title={t("meterAccount.preview.title")}
      data-testid="close-preview"
      items={[
        { key: "owner", label: t("meterAccount.preview.owner"), children: preview.ownerName },
        { key: "room", label: t("meterAccount.preview.room"), children: preview.roomName },
        {
          key: "last",
          label: t("meterAccount.preview.lastReading"),
          children: figure(preview.lastReading, "preview-last-reading"),
        },
        {
          key: "final",
          label: t("meterAccount.preview.finalReading"),
          children: figure(preview.finalReading, "preview-final-reading"),
        },
        { key: "time", label: t("meterAccount.preview.readTime"), children: preview.finalReadTime },
        {
          key: "usage",
          label: t("meterAccount.preview.usage"),
          children: figure(preview.usage, "preview-usage"),
        },
        {
          key: "charge",
          label: t("meterAccount.preview.usageCharge"),
          children: figure(preview.usageCharge, "preview-usage-charge"),
        },
        {
          key: "balance",
          label: t("meterAccount.preview.balance"),
          children: figure(preview.balance, "preview-balance"),
        },
        owes
          ? {
              key: "debt",
              label: t("meterAccount.preview.debt"),
              children: (
                <Typography.Text type="danger" data-testid="preview-debt">
                  {preview.debt}
                </Typography.Text>
              ),
            }
          : {
              key: "refund",
              label: t("meterAccount.preview.refund"),
              children: figure(preview.refund, "preview-refund"),
            },
      ]}
    />
  );
}
