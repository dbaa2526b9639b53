import { Form, Input, Select } from "antd";
import type { Option } from "../../../crud/dictionary.ts";
import { useT } from "../../../i18n/index.tsx";
import { amountProblem } from "./money-text.ts";

/**
 * The amount (yuan, two places, checked as the server checks it), the payment method and the
 * remark of money taken at once for an account or a group: the form items of a recharge form.
 */
export function PaymentFields({ methods }: { methods: readonly Option[] }) {
  const t = useT();
  return (
    <>
      <Form.Item
        name="amount"
        label={t("counter.form.amount")}
        extra={t("counter.form.amountHelp")}
        rules={[
          {
            validator: async (_: unknown, value: string | undefined) => {
              const problem = amountProblem(value ?? "");
              if (problem) throw new Error(t(`counter.amount.${problem}`));
            },
          },
        ]}
      >
        <Input inputMode="decimal" autoComplete="off" suffix={t("counter.form.yuan")} />
      </Form.Item>
      <Form.Item
        name="paymentMethod"
        label={t("counter.form.method")}
        rules={[{ required: true, message: t("counter.form.methodRequired") }]}
      >
        <Select options={[...methods]} />
      </Form.Item>
      <Form.Item name="remark" label={t("counter.form.remark")} rules={[{ max: 255 }]}>
        <Input.TextArea rows={2} maxLength={255} />
      </Form.Item>
    </>
  );
}
