import { Alert, Form, Input, Modal, Radio, Result, Select, Spin } from "antd";
import { useEffect, useRef, useState } from "react";
import { describeError } from "../../../app/api.ts";
import { useFeedback } from "../../../app/feedback.ts";
import { useT } from "../../../i18n/index.tsx";
import { createNativeOrder, type WxpayOrder } from "../money-calls.ts";
import {
  type BookedRecharge,
  type CodePayment,
  newIdempotencyKey,
  type OwnerAccount,
  type OwnerWithAccounts,
  payWithCode,
  type RechargeInput,
  type RechargeType,
  rechargeDetail,
  submitMeterRecharge,
  submitRecharge,
} from "./counter-calls.ts";
import { waitForMeter } from "./meter-wait.ts";
import { amountProblem, yuanToFen } from "./money-text.ts";
import type { CounterAction } from "./OwnerPanel.tsx";
import { codeChannel } from "./payment-code.ts";
import { usePaymentMethods } from "./payment-methods.ts";
import { type ReceiptData, receiptFromAnswer, receiptOf } from "./receipt-data.ts";
import { WxNativePay } from "./WxNativePay.tsx";

interface Values {
  accountId: string;
  direction?: 3 | 4;
  amount: string;
  paymentMethod?: string;
  /** A payment code scanned from the owner's phone (WeChat Pay or Alipay): paid by code instead. */
  authCode?: string;
  remark?: string;
}

interface Props {
  owner: OwnerWithAccounts;
  action: CounterAction;
  accountId: string;
  onBooked: (receipt: ReceiptData) => void;
  onClose: () => void;
}

type Phase =
  /** notPaid: a scanned code's payment was not taken (reversed, failed, or not known yet). */
  | { kind: "form"; error?: string; unavailable?: boolean; notPaid?: boolean }
  | { kind: "waiting"; receiptNo: string }
  | { kind: "meterFailed"; receiptNo: string }
  | { kind: "meterTimeout"; receiptNo: string }
  /** Money leaving the account above the tenant's threshold: booked once someone else approves. */
  | { kind: "approval"; receiptNo: string; processInstanceId: string }
  /** The owner pays by scanning a WeChat Pay QR code; its notification books the recharge. */
  | { kind: "wxNative"; order: WxpayOrder; target: OwnerAccount }
  /** A scanned payment code is being paid; the owner may have to confirm it on the phone. */
  | { kind: "codePay"; channel: "wechat" | "alipay" | undefined; amount: string };

/** The counter's own payment choice: a WeChat Pay Native order instead of money taken in hand. */
const WX_NATIVE = "wxNative";

const typeOf = (action: CounterAction, values: Values): RechargeType =>
  action === "recharge" ? 1 : action === "refund" ? 2 : (values.direction ?? 3);

/**
 * Takes a recharge, a refund or a correction on one of the owner's accounts. The idempotency key is
 * made when the dialog opens and kept across retries, so a double click or a retry after a lost
 * answer books once. Refunds and corrections need a reason and a confirmation naming the amount and
 * the account. A purchase for a prepaid-in-meter account waits for the meter to confirm it.
 */
export function RechargeDialog({ owner, action, accountId, onBooked, onClose }: Props) {
  const t = useT();
  const { modal } = useFeedback();
  const methods = usePaymentMethods();
  const [form] = Form.useForm<Values>();
  const [key] = useState(newIdempotencyKey);
  const [busy, setBusy] = useState(false);
  const [phase, setPhase] = useState<Phase>({ kind: "form" });
  const waiting = useRef<AbortController | null>(null);
  useEffect(() => () => waiting.current?.abort(), []);

  const chosenId = Form.useWatch("accountId", form) ?? accountId;
  const account = owner.accounts.find((a) => a.id === chosenId);
  const needsReason = action !== "recharge";
  const takesMethod = action !== "correct";
  const energyOf = (a: OwnerAccount) => t(a.energyType === 2 ? "counter.energy.2" : "counter.energy.1");
  const title = t(`counter.${action}`);

  /** The receipt as the server holds the booking; if that read fails, the booking's own answer. */
  const finish = async (booked: BookedRecharge, input: RechargeInput, target: OwnerAccount) => {
    try {
      onBooked(receiptOf(await rechargeDetail(booked.id, owner.tenantId), target, booked.replayed));
    } catch {
      onBooked(receiptFromAnswer(booked, input, target, owner.ownerName, owner.tenantName));
    }
  };

  const book = async (values: Values, target: OwnerAccount) => {
    const rechargeType = typeOf(action, values);
    const input = {
      accountId: target.id,
      paymentMethod: takesMethod ? (values.paymentMethod ?? "1") : "0",
      amount: values.amount.trim(),
      remark: (values.remark ?? "").trim(),
      idempotencyKey: key,
    };
    setBusy(true);
    setPhase({ kind: "form" });
    // The meter keeps a prepaid-in-meter balance: only a purchase goes to the meter, and it is done
    // when the meter says so.
    const toMeter = target.controlStatus === 0 && rechargeType === 1;
    const authCode = (values.authCode ?? "").trim();
    try {
      if (authCode && rechargeType === 1 && !toMeter) {
        await payByCode(authCode, input.amount, target);
        return;
      }
      if (values.paymentMethod === WX_NATIVE && rechargeType === 1 && !toMeter) {
        const order = await createNativeOrder(target.id, input.amount, owner.tenantId);
        setPhase({ kind: "wxNative", order, target });
        return;
      }
      if (toMeter) {
        let sent: Awaited<ReturnType<typeof submitMeterRecharge>>;
        try {
          sent = await submitMeterRecharge(input, owner.tenantId);
        } catch (error) {
          setPhase({ kind: "form", error: describeError(error), unavailable: true });
          return;
        }
        setPhase({ kind: "waiting", receiptNo: sent.receiptNo });
        const controller = new AbortController();
        waiting.current = controller;
        const outcome = await waitForMeter(() => rechargeDetail(sent.id, owner.tenantId), controller.signal);
        if (controller.signal.aborted) return;
        if (outcome.state === "booked") onBooked(receiptOf(outcome.detail, target, false));
        else if (outcome.state === "failed") setPhase({ kind: "meterFailed", receiptNo: sent.receiptNo });
        else setPhase({ kind: "meterTimeout", receiptNo: sent.receiptNo });
        return;
      }
      const sentInput = { ...input, rechargeType };
      const booked = await submitRecharge(sentInput, owner.tenantId);
      if (booked.state === 3) {
        setPhase({
          kind: "approval",
          receiptNo: booked.receiptNo,
          processInstanceId: booked.processInstanceId ?? "",
        });
        return;
      }
      await finish(booked, sentInput, target);
    } catch (error) {
      setPhase({ kind: "form", error: describeError(error) });
    } finally {
      setBusy(false);
    }
  };

  /**
   * The owner's payment code: the server answers once the channel says paid (the recharge booked,
   * its receipt read back with the channel's transaction number) or reversed. A code pays once, so
   * the field is emptied for the next scan whatever the outcome.
   */
  const payByCode = async (authCode: string, amount: string, target: OwnerAccount) => {
    setPhase({ kind: "codePay", channel: codeChannel(authCode), amount });
    let paid: CodePayment;
    try {
      paid = await payWithCode({ accountId: target.id, amount, authCode }, owner.tenantId);
    } finally {
      form.setFieldValue("authCode", "");
    }
    if (paid.state !== 1) {
      const outcome = paid.state === 0 ? "open" : paid.state === 3 ? "failed" : "closed";
      setPhase({ kind: "form", error: t(`counter.codePay.${outcome}`), notPaid: true });
      return;
    }
    try {
      onBooked(receiptOf(await rechargeDetail(paid.rechargeId, owner.tenantId), target, false));
    } catch {
      // Booked all the same: the receipt from the answer, its transaction number included.
      onBooked({
        ...receiptFromAnswer(
          {
            id: paid.rechargeId,
            receiptNo: "",
            accountId: target.id,
            amount: paid.amount,
            balanceAfter: "",
            replayed: false,
          },
          {
            accountId: target.id,
            rechargeType: 1,
            // PAYMENT_METHOD 5 WeChat Pay, 4 Alipay.
            paymentMethod: paid.channel === "wechat" ? "5" : "4",
            amount: paid.amount,
            remark: "",
            idempotencyKey: key,
          },
          target,
          owner.ownerName,
          owner.tenantName,
        ),
        transactionNo: paid.transactionNo,
      });
    }
  };

  const submit = (values: Values) => {
    const target = owner.accounts.find((a) => a.id === values.accountId);
    if (!target) return;
    if (!needsReason) {
      void book(values, target);
      return;
    }
    const type = t(`counter.type.${typeOf(action, values)}`);
    modal.confirm({
      title: t("counter.confirmTitle", { type }),
      content: t("counter.confirmText", {
        type,
        amount: values.amount.trim(),
        energy: energyOf(target),
        meter: target.productCode,
        room: target.roomName,
        owner: owner.ownerName,
        reason: (values.remark ?? "").trim(),
      }),
      okText: t("counter.form.submit", { type }),
      okButtonProps: { danger: action === "refund", "data-testid": "counter-confirm-ok" },
      onOk: () => book(values, target),
    });
  };

  const validateAmount = async (_: unknown, value: string | undefined) => {
    const problem = amountProblem(value ?? "");
    if (problem) throw new Error(t(`counter.amount.${problem}`));
    // A refund never exceeds the balance (the server refuses it too; saying so here saves a trip).
    if (action === "refund" && account && (yuanToFen(value ?? "") ?? 0n) > (yuanToFen(account.balance) ?? 0n))
      throw new Error(t("counter.amount.overBalance", { balance: account.balance }));
  };

  // A recharge of a server-kept account may also be paid by the owner's phone (WeChat Pay QR code).
  const offersWx = action === "recharge" && account?.controlStatus !== 0;
  const methodOptions = offersWx ? [...methods, { value: WX_NATIVE, label: t("wxpay.native") }] : methods;
  const paidByWx = async (order: WxpayOrder, target: OwnerAccount) => {
    try {
      onBooked(receiptOf(await rechargeDetail(order.rechargeId, owner.tenantId), target, false));
    } catch (error) {
      setPhase({ kind: "form", error: describeError(error) });
    }
  };

  const validateCode = async (_: unknown, value: string | undefined) => {
    if (value?.trim() && !codeChannel(value)) throw new Error(t("counter.form.authCodeInvalid"));
  };

  const inForm = phase.kind === "form";
  return (
    <Modal
      open
      title={t("counter.form.title", { type: title, owner: owner.ownerName })}
      onCancel={onClose}
      onOk={inForm ? () => form.submit() : onClose}
      okText={inForm ? t("counter.form.submit", { type: title }) : t("counter.close")}
      okButtonProps={{
        loading: busy,
        disabled: phase.kind === "waiting" || phase.kind === "codePay",
        "data-testid": "counter-submit",
      }}
      cancelButtonProps={{ style: inForm ? undefined : { display: "none" } }}
      cancelText={t("common.cancel")}
      maskClosable={false}
      destroyOnHidden
      data-testid="counter-dialog"
    >
      {phase.kind === "waiting" && (
        <Result
          icon={<Spin size="large" />}
          title={t("counter.waiting")}
          subTitle={t("counter.waitingHint", { receiptNo: phase.receiptNo })}
          data-testid="counter-waiting"
        />
      )}
      {phase.kind === "codePay" && (
        <Result
          icon={<Spin size="large" />}
          title={<span aria-live="polite">{t("counter.codePay.waiting")}</span>}
          subTitle={t("counter.codePay.waitingHint", {
            channel: phase.channel ? t(`counter.codePay.${phase.channel}`) : "",
            amount: phase.amount,
          })}
          data-testid="counter-codepay-waiting"
        />
      )}
      {phase.kind === "meterFailed" && (
        <Result
          status="error"
          title={t("counter.meterFailed")}
          subTitle={t("counter.meterFailedHint", { receiptNo: phase.receiptNo })}
        />
      )}
      {phase.kind === "meterTimeout" && (
        <Result
          status="warning"
          title={t("counter.meterTimeout")}
          subTitle={t("counter.meterTimeoutHint", { receiptNo: phase.receiptNo })}
        />
      )}
      {phase.kind === "approval" && (
        <Result
          status="info"
          title={t("counter.approval")}
          subTitle={t("counter.approvalHint", {
            receiptNo: phase.receiptNo,
            processInstanceId: phase.processInstanceId,
          })}
          data-testid="counter-approval"
        />
      )}
      {phase.kind === "wxNative" && (
        <WxNativePay
          order={phase.order}
          {...(owner.tenantId ? { tenantId: owner.tenantId } : {})}
          onPaid={(order) => void paidByWx(order, phase.target)}
        />
      )}
      {inForm && phase.error && (
        <Alert
          type={phase.unavailable || phase.notPaid ? "warning" : "error"}
          showIcon
          role="alert"
          title={t(
            phase.notPaid
              ? "counter.codePay.notPaid"
              : phase.unavailable
                ? "counter.meterUnavailable"
                : "counter.failed",
          )}
          description={
            phase.unavailable || phase.notPaid ? phase.error : `${phase.error} · ${t("counter.failedHint")}`
          }
          style={{ marginBottom: 12 }}
          data-testid="counter-error"
        />
      )}
      <Form<Values>
        form={form}
        layout="vertical"
        hidden={!inForm}
        disabled={busy}
        initialValues={{ accountId, paymentMethod: "1" }}
        onFinish={submit}
        data-testid="counter-form"
      >
        <Form.Item
          name="accountId"
          label={t("counter.form.account")}
          rules={[{ required: true, message: t("counter.form.accountRequired") }]}
        >
          <Select
            options={owner.accounts.map((a) => ({
              value: a.id,
              label: t("counter.accountOption", {
                energy: energyOf(a),
                meter: a.productCode,
                room: a.roomName,
                balance: a.balance,
              }),
            }))}
          />
        </Form.Item>
        {action === "correct" && (
          <Form.Item
            name="direction"
            label={t("counter.form.direction")}
            rules={[{ required: true, message: t("counter.form.directionRequired") }]}
          >
            <Radio.Group
              options={[
                { value: 3, label: t("counter.type.3") },
                { value: 4, label: t("counter.type.4") },
              ]}
            />
          </Form.Item>
        )}
        <Form.Item
          name="amount"
          label={t("counter.form.amount")}
          extra={t("counter.form.amountHelp")}
          rules={[{ validator: validateAmount }]}
        >
          <Input inputMode="decimal" autoComplete="off" suffix={t("counter.form.yuan")} autoFocus />
        </Form.Item>
        {takesMethod && (
          <Form.Item
            name="paymentMethod"
            label={t("counter.form.method")}
            rules={[{ required: true, message: t("counter.form.methodRequired") }]}
          >
            <Select options={methodOptions} />
          </Form.Item>
        )}
        {offersWx && (
          <Form.Item
            name="authCode"
            label={t("counter.form.authCode")}
            extra={t("counter.form.authCodeHelp")}
            rules={[{ validator: validateCode }]}
          >
            <Input
              inputMode="numeric"
              autoComplete="off"
              maxLength={32}
              // A USB scanner types the digits and presses Enter: Enter takes the code payment.
              onPressEnter={(event) => {
                event.preventDefault();
                form.submit();
              }}
              data-testid="counter-auth-code"
            />
          </Form.Item>
        )}
        <Form.Item
          name="remark"
          label={t(needsReason ? "counter.form.reason" : "counter.form.remark")}
          rules={[
            { required: needsReason, whitespace: true, message: t("counter.form.reasonRequired") },
            { max: 255 },
          ]}
        >
          <Input.TextArea rows={2} maxLength={255} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
