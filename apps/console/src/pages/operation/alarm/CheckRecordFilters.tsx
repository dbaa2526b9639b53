import { Button, Form, type FormInstance, Input, Select, Space } from "antd";
import type { ReactNode } from "react";
import { DateRangeInput } from "../../../crud/DateRangeInput.tsx";
import type { Option } from "../../../crud/dictionary.ts";
import { ResourceFormProvider, type ResourceFormScope } from "../../../crud/form-context.ts";
import { RefPicker } from "../../../crud/RefPicker.tsx";
import { useT } from "../../../i18n/index.tsx";
import { type AlarmFilters, alarmFilterDef } from "./alarm-filters.ts";

const scope: ResourceFormScope = { def: alarmFilterDef, purpose: "search" };

interface Props {
  form: FormInstance<AlarmFilters>;
  rules: Option[];
  levels: Option[];
  states: Option[];
  onSearch: (values: AlarmFilters) => void;
  onReset: () => void;
  /** Buttons after 搜索 / 重置 (export). */
  extra?: ReactNode;
}

/**
 * The search bar of 告警记录: the area tree (records of the meters in its rooms), rule, level and
 * state from their dictionaries, the meter number, and the time the alarm was raised.
 */
export function CheckRecordFilters({ form, rules, levels, states, onSearch, onReset, extra }: Props) {
  const t = useT();
  const area = alarmFilterDef.fields.areaId;
  const select = (testId: string, options: Option[], width: number) => (
    <Select
      style={{ width }}
      allowClear
      placeholder={t("alarm.all")}
      data-testid={testId}
      options={options}
      // Rule names are long: the list is wider than the closed select.
      popupMatchSelectWidth={false}
    />
  );
  return (
    <ResourceFormProvider value={scope}>
      <Form<AlarmFilters>
        form={form}
        layout="inline"
        // Ids become alarmSearch_<field>, each label pointing at its own control.
        name="alarmSearch"
        onFinish={onSearch}
        onReset={onReset}
        style={{ rowGap: 12 }}
      >
        <Form.Item name="areaId" label={t("alarm.area")}>
          {area ? <RefPicker name="areaId" field={area} /> : null}
        </Form.Item>
        <Form.Item name="ruleCode" label={t("alarm.ruleName")}>
          {select("alarm-filter-rule", rules, 160)}
        </Form.Item>
        <Form.Item name="alarmLevel" label={t("alarm.level")}>
          {select("alarm-filter-level", levels, 130)}
        </Form.Item>
        <Form.Item name="alarmStatus" label={t("alarm.state")}>
          {select("alarm-filter-state", states, 120)}
        </Form.Item>
        <Form.Item name="productCode" label={t("alarm.productCode")}>
          <Input allowClear style={{ width: 160 }} data-testid="alarm-filter-meter" />
        </Form.Item>
        <Form.Item name="period" label={t("alarm.timeRange")}>
          <DateRangeInput startLabel={t("crud.startTime")} endLabel={t("crud.endTime")} />
        </Form.Item>
        <Form.Item>
          <Space wrap>
            <Button type="primary" htmlType="submit" data-testid="alarm-search">
              {t("alarm.search")}
            </Button>
            <Button htmlType="reset">{t("alarm.reset")}</Button>
            {extra}
          </Space>
        </Form.Item>
      </Form>
    </ResourceFormProvider>
  );
}
