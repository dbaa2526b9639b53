import type { QueryParams } from "@meterline/api-client";
import type { FieldDef, ResourceDef } from "@meterline/contracts";
import { Button, DatePicker, Form, Input, Select, Space } from "antd";
import type { Dayjs } from "dayjs";
import { useI18n } from "../i18n/index.tsx";
import { useDictionary } from "./dictionary.ts";
import { DATE_TIME, searchFields } from "./fields.ts";
import { fieldLabel } from "./labels.ts";

type Range = [Dayjs | null, Dayjs | null] | null | undefined;

function DictionaryFilter({
  field,
  ...rest
}: {
  field: FieldDef;
  value?: string;
  onChange?: (v: string) => void;
}) {
  const { language } = useI18n();
  const options = useDictionary(field, language);
  return <Select {...rest} options={options} allowClear style={{ width: 180 }} />;
}

/** Range fields, and createTime on audited resources, filter by `<f>_datege` / `<f>_datelt`. */
const rangeNames = (def: ResourceDef) => {
  const names = searchFields(def)
    .filter(([, f]) => f.search === "range")
    .map(([n]) => n);
  return def.audit && !names.includes("createTime") ? [...names, "createTime"] : names;
};

/** Form values → the list call's filter parameters (contract §3.1). */
export function toFilters(def: ResourceDef, values: Record<string, unknown>): QueryParams {
  const filters: QueryParams = {};
  for (const [name, field] of searchFields(def)) {
    if (field.search === "range") continue;
    const value = values[name];
    if (typeof value === "string" && value.trim() !== "") filters[name] = value.trim();
  }
  for (const name of rangeNames(def)) {
    const [from, to] = (values[name] as Range) ?? [null, null];
    if (from) filters[`${name}_datege`] = from.format(DATE_TIME);
    if (to) filters[`${name}_datelt`] = to.format(DATE_TIME);
  }
  return filters;
}

interface Props {
  def: ResourceDef;
  onSearch: (filters: QueryParams) => void;
}

/** The search bar above a resource table: one control per searchable field, search and clear. */
export function SearchForm({ def, onSearch }: Props) {
  const { t, language } = useI18n();
  const [form] = Form.useForm();
  const submit = (values: Record<string, unknown>) => onSearch(toFilters(def, values));
  return (
    <Form form={form} layout="inline" onFinish={submit} data-testid="crud-search" style={{ rowGap: 12 }}>
      {searchFields(def)
        .filter(([, f]) => f.search !== "range")
        .map(([name, field]) => (
          <Form.Item key={name} name={name} label={fieldLabel(def, name, language)}>
            {field.dict || field.dictBiz ? (
              <DictionaryFilter field={field} />
            ) : (
              <Input allowClear style={{ width: 180 }} data-testid={`search-${name}`} />
            )}
          </Form.Item>
        ))}
      {rangeNames(def).map((name) => (
        <Form.Item key={name} name={name} label={fieldLabel(def, name, language)}>
          <DatePicker.RangePicker showTime placeholder={[t("crud.startTime"), t("crud.endTime")]} />
        </Form.Item>
      ))}
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" data-testid="crud-search-submit">
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
        </Space>
      </Form.Item>
    </Form>
  );
}
