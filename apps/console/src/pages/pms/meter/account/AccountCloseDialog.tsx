import { Alert, Button, Checkbox, Descriptions, Form, Input, Modal, Space, Spin, Typography } from "antd";
import { useEffect, useState } from "react";
import { describeError, reportNetworkError } from "../../../../app/api.ts";
import { useT } from "../../../../i18n/index.tsx";
import { ReceiptDialog } from "../../../money/counter/ReceiptDialog.tsx";
import { type ReceiptData, receiptOfAccountOperation } from "../../../money/counter/receipt-data.ts";
import type { Energy } from "../switch-calls.ts";
import {
  accountOperation,
  type ClosedAccount,
  type ClosingPreview,
  closeAccounts,
  closingPreview,
} from "./account-calls.ts";
import { ClosingPreviewView } from "./ClosingPreview.tsx";

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
 * Closes one meter's account. First the settlement it would book is shown (final reading, usage
 * since the last settled reading, balance, refund or debt) with the rule; a meter whose balance the
 * server keeps has its supply cut on closing unless the operator keeps it on and says why. After
 * the closing it shows the final settlement and prints the closing slip to sign.
 */
export function AccountCloseDialog({ energy, meter, onClose }: Props) {
  const t = useT();
  const [form] = Form.useForm<{ keep: boolean; reason: string }>();
  const keep = Form.useWatch("keep", form) === true;
  const [preview, setPreview] = useState<ClosingPreview>();
  const [sending, setSending] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const [closed, setClosed] = useState<ClosedAccount>();
  const [slip, setSlip] = useState<ReceiptData>();
  const [printing, setPrinting] = useState(false);

  useEffect(() => {
    let live = true;
    closingPreview(energy, meter.id)
      .then((seen) => live && setPreview(seen))
      .catch((error: unknown) => {
        reportNetworkError(error);
        if (live) setRefusal(describeError(error));
      });
    return () => {
      live = false;
    };
  }, [energy, meter.id]);

  const send = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSending(true);
    setRefusal(undefined);
    try {
      const supply = { keep: values.keep === true, reason: (values.reason ?? "").trim() };
      const [settled] = await closeAccounts(energy, [meter.id], supply);
      setClosed(settled);
    } catch (error) {
      reportNetworkError(error);
      setRefusal(describeError(error));
    } finally {
      setSending(false);
    }
  };

  // The slip is the server's record of the closing (number, final reading, supply), as 补打 prints it.
  const printSlip = async () => {
    if (!closed) return;
    setPrinting(true);
    try {
      setSlip(receiptOfAccountOperation(await accountOperation("close", closed.accountId), true));
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setPrinting(false);
    }
  };

  const footer = closed ? (
    <Space>
      {closed.state === 1 && (
        <Button loading={printing} onClick={() => void printSlip()} data-testid="close-print-slip">
          {t("meterAccount.close.printSlip")}
        </Button>
      )}
      <Button type="primary" onClick={() => onClose(true)} data-testid="account-close-done">
        {t("meterAccount.finish")}
      </Button>
    </Space>
  ) : (
    <Space>
      <Button onClick={() => onClose(false)}>{t("common.cancel")}</Button>
      <Button
        danger
        type="primary"
        loading={sending}
        disabled={!preview}
        onClick={() => void send()}
        data-testid="account-close-ok"
      >
        {t("meterAccount.close.ok")}
      </Button>
    </Space>
  );

  return (
    <>
      <Modal
        open={!slip}
        title={t("meterAccount.close.title")}
        footer={footer}
        onCancel={() => onClose(Boolean(closed))}
        maskClosable={false}
        destroyOnHidden
        width={560}
      >
        <Space orientation="vertical" style={{ width: "100%" }} data-testid="account-close-dialog">
          <Typography.Text>{t("meterAccount.close.meter", { meter: meter.productCode })}</Typography.Text>
          {closed?.state === 3 ? (
            // Held for a second person: nothing refunded yet, the account still open.
            <Alert
              type="info"
              showIcon
              title={t("moneyApproval.held")}
              description={t("moneyApproval.closeHeld")}
              data-testid="account-close-held"
            />
          ) : closed ? (
            <>
              <Alert type="success" showIcon title={t("meterAccount.close.done")} />
              <Settlement closed={closed} />
            </>
          ) : (
            <>
              {preview ? (
                <ClosingPreviewView preview={preview} />
              ) : (
                !refusal && (
                  // The label sits on a status region: a bare spinner div may not carry aria-label.
                  <div role="status" aria-label={t("meterAccount.preview.loading")}>
                    <Spin />
                  </div>
                )
              )}
              <Alert type="warning" showIcon title={t("meterAccount.close.rule")} />
              {preview?.controlStatus === 1 && (
                <Form form={form} name="accountCloseSupply" layout="vertical" initialValues={{ keep: false }}>
                  {!keep && <Alert type="info" showIcon title={t("meterAccount.supply.cutRule")} />}
                  <Form.Item name="keep" valuePropName="checked" style={{ margin: "8px 0" }}>
                    <Checkbox data-testid="close-keep-supply">{t("meterAccount.supply.keep")}</Checkbox>
                  </Form.Item>
                  {keep && (
                    <Form.Item
                      name="reason"
                      label={t("meterAccount.supply.reason")}
                      rules={[
                        {
                          required: true,
                          whitespace: true,
                          message: t("meterAccount.supply.reasonRequired"),
                        },
                        { max: 255 },
                      ]}
                    >
                      <Input.TextArea rows={2} maxLength={255} data-testid="close-keep-reason" />
                    </Form.Item>
                  )}
                </Form>
              )}
            </>
          )}
          {refusal ? (
            <Typography.Text type="danger" role="alert" data-testid="account-refusal">
              {refusal}
            </Typography.Text>
          ) : null}
        </Space>
      </Modal>
      {slip && <ReceiptDialog receipt={slip} onClose={() => setSlip(undefined)} />}
    </>
  );
}
