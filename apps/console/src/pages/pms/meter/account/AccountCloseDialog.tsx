import { Alert, Button, Descriptions, Modal, Space, Typography } from "antd";
import { useState } from "react";
import { describeError, reportNetworkError } from "../../../../app/api.ts";
import { useT } from "../../../../i18n/index.tsx";
import type { Energy } from "../switch-calls.ts";
import { type ClosedAccount, closeAccounts } from "./account-calls.ts";

interface Props {
  energy: Energy;
  meter: { id: string; productCode: string };
  /** `closed` says whether the account was closed, so the table reloads only then. */
  onClose: (closed: boolean) => void;
}

/** The final settlement of a closed account: the balance paid back, or the debt left on record. */
export function Settlement({ closed }: { closed: ClosedAccount }) {
  const t = useT();
  const owes = Number(closed.debt) > 0;
  if (closed.state === 0)
    return (
      <Alert
        type="info"
        showIcon
        data-testid="account-settlement"
        message={t("meterAccount.close.clearing")}
      />
    );
  return (
    <Descriptions column={1} size="small" bordered data-testid="account-settlement">
      <Descriptions.Item label={t("meterAccount.close.refunded")}>
        <span data-testid="settlement-refunded">
          {closed.refunded} {t("meterAccount.yuan")}
        </span>
      </Descriptions.Item>
      <Descriptions.Item label={t("meterAccount.close.debt")}>
        <Typography.Text type={owes ? "danger" : undefined} data-testid="settlement-debt">
          {closed.debt} {t("meterAccount.yuan")}
        </Typography.Text>
      </Descriptions.Item>
    </Descriptions>
  );
}

/**
 * Closes one meter's account after a confirmation that states the rule: usage is settled to the
 * last reading, a balance is paid back, a balance below zero stays on record as debt. Afterwards
 * it shows the final settlement.
 */
export function AccountCloseDialog({ energy, meter, onClose }: Props) {
  const t = useT();
  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const [closed, setClosed] = useState<ClosedAccount>();

  const send = async () => {
    setSending(true);
    setRefusal(undefined);
    try {
      const [settled] = await closeAccounts(energy, [meter.id]);
      setClosed(settled);
    } catch (error) {
      reportNetworkError(error);
      setRefusal(describeError(error));
    } finally {
      setSending(false);
    }
  };

  const footer = closed ? (
    <Button type="primary" onClick={() => onClose(true)} data-testid="account-close-done">
      {t("meterAccount.finish")}
    </Button>
  ) : (
    <Space>
      <Button onClick={() => onClose(false)}>{t("common.cancel")}</Button>
      <Button
        danger
        type="primary"
        loading={sending}
        onClick={() => void send()}
        data-testid="account-close-ok"
      >
        {t("meterAccount.close.ok")}
      </Button>
    </Space>
  );

  return (
    <Modal
      open
      title={t("meterAccount.close.title")}
      footer={footer}
      onCancel={() => onClose(Boolean(closed))}
      maskClosable={false}
      destroyOnHidden
    >
      <Space orientation="vertical" style={{ width: "100%" }} data-testid="account-close-dialog">
        <Typography.Text>{t("meterAccount.close.meter", { meter: meter.productCode })}</Typography.Text>
        {closed ? (
          <>
            <Alert type="success" showIcon title={t("meterAccount.close.done")} />
            <Settlement closed={closed} />
          </>
        ) : (
          <Alert type="warning" showIcon title={t("meterAccount.close.rule")} />
        )}
        {refusal ? (
          <Typography.Text type="danger" role="alert" data-testid="account-refusal">
            {refusal}
          </Typography.Text>
        ) : null}
      </Space>
    </Modal>
  );
}
