import type { QueryParams } from "@meterline/api-client";
import { Button, Form, Input, Select, Space } from "antd";
import { type ReactNode, useMemo } from "react";
import { DateRangeInput } from "../../crud/DateRangeInput.tsx";
import { useDictionary } from "../../crud/dictionary.ts";
import { ResourceFormProvider, type ResourceFormScope } from "../../crud/form-context.ts";
import { RefPicker } from "../../crud/RefPicker.tsx";
import { TenantFilter } from "../../crud/tenant-column.tsx";
import { type MessageKey, useI18n } from "../../i18n/index.tsx";
import { type MoneyFilter, moneyFilterDef, toMoneyQuery } from "./money-filters.ts";
import { channelOptions, paymentStateOptions } from "./money-labels.ts";

const labels: Record<MoneyFilter, MessageKey> = {
  areaId: "moneyList.area",
  roomId: "moneyList.room",
  ownerName: "moneyList.owner",
  phone: "moneyList.phone",
  productCode: "moneyList.meterNo",
  receiptNo: "moneyList.receiptNo",
  outTradeNo: "wxpay.outTradeNo",
  tradeType: "wxpay.tradeType",
  energyType: "moneyList.energyType",
  rechargeType: "moneyList.rechargeType",
  paymentMethod: "moneyList.paymentMethod",
  state: "moneyList.state",
  channel: "moneyList.channel",
  period: "moneyList.period",
};

const SELECT_WIDTH = 160;
const scope: ResourceFormScope = { def: moneyFilterDef, purpose: "search" };

/** A select of a dictionary's items (energy type, RECHARGE_TYPE, PAYMENT_METHOD). */
function DictionarySelect({ name, ...rest }: { name: "energyType" | "rechargeType" | "paymentMethod" }) {
  const { language } = useI18n();
  const field = moneyFilterDef.fields[name];
  const options = useDictionary(field ?? { type: "int" }, language);
  return <Select {...rest} options={options} allowClear style={{ width: SELECT_WIDTH }} />;
}

interface Props {
  fields: readonly MoneyFilter[];
  onSearch: (query: QueryParams) => void;
  /** Buttons after 搜索 / 清空 (export). */
  extra?: ReactNode;
  /** The platform administrator narrows to one tenant (`tenantId`); nobody else is offered it. */
  byTenant?: boolean;
  /** The states the 状态 select offers, when the list's states are not payment states. */
  stateOptions?: { value: string; label: string }[];
  /** The trade types the 方式 select offers (WeChat Pay orders). */
  tradeTypeOptions?: { value: string; label: string }[];
}

/**
 * The search bar of a money list, shaped like every resource screen's: area and room from the
 * registry's pickers, owner and meter number as texts, dictionary selects and a day range.
 */
export function MoneyFilters({ fields, onSearch, extra, byTenant = false, ...choices }: Props) {
  const { t } = useI18n();
  const [form] = Form.useForm();
  const paymentStates = useMemo(() => paymentStateOptions(t), [t]);
  const stateOptions = choices.stateOptions ?? paymentStates;
  const channels = useMemo(() => channelOptions(t), [t]);
  const control = (name: MoneyFilter): ReactNode => {
    switch (name) {
      case "areaId":
      case "roomId": {
        const field = moneyFilterDef.fields[name];
        return field ? <RefPicker name={name} field={field} /> : null;
      }
      case "energyType":
      case "rechargeType":
      case "paymentMethod":
        return <DictionarySelect name={name} />;
      case "state":
        return <Select options={stateOptions} allowClear style={{ width: SELECT_WIDTH }} />;
      case "channel":
        return <Select options={channels} allowClear style={{ width: SELECT_WIDTH }} />;
      case "tradeType":
        return <Select options={choices.tradeTypeOptions ?? []} allowClear style={{ width: SELECT_WIDTH }} />;
      case "period":
        return (
          <DateRangeInput
            startLabel={t("moneyList.startDay")}
            endLabel={t("moneyList.endDay")}
            showTime={false}
          />
        );
      default:
        return <Input allowClear style={{ width: SELECT_WIDTH }} data-testid={`money-search-${name}`} />;
    }
  };
  return (
    <ResourceFormProvider value={scope}>
      <Form
        form={form}
        layout="inline"
        // Ids become moneySearch_<field>, each label pointing at its own control.
        name="moneySearch"
        onFinish={(values: Record<string, unknown>) => onSearch(toMoneyQuery(values))}
        data-testid="money-search"
        style={{ rowGap: 12 }}
      >
        {byTenant && (
          <Form.Item name="tenantId" label={t("crud.tenant")}>
            <TenantFilter shown={byTenant} />
          </Form.Item>
        )}
        {fields.map((name) => (
          <Form.Item key={name} name={name} label={t(labels[name])}>
            {control(name)}
          </Form.Item>
        ))}
        <Form.Item>
          <Space wrap>
            <Button type="primary" htmlType="submit" data-testid="money-search-submit">
              {t("crud.search")}
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                onSearch({});
              }}
            >
              {t("crud.reset")}
            </Button>
            {extra}
          </Space>
        </Form.Item>
      </Form>
    </ResourceFormProvider>
  );
}
