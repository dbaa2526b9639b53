import type { QueryParams } from "@meterline/api-client";
import type { FieldDef, ResourceDef } from "@meterline/contracts";
import { Button, Form, Input, Select, Space } from "antd";
import type { Dayjs } from "dayjs";
import { useMemo } from "react";
import { useI18n } from "../i18n/index.tsx";
import { DateRangeInput } from "./DateRangeInput.tsx";
import { useDictionary } from "./dictionary.ts";
import { DATE_TIME, searchFields } from "./fields.ts";
import { ResourceFormProvider, type ResourceFormScope } from "./form-context.ts";
import { fieldLabel } from "./labels.ts";
import { dependentFields } from "./pickers.ts";
import { RefPicker } from "./RefPicker.tsx";
import { TenantFilter, useShowsTenant } from "./tenant-column.tsx";

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
  /** Fields the page already filters on (the area chosen in a tree beside the table). */
  omit?: readonly string[];
}

/** The search bar above a resource table: one control per searchable field, search and clear. */
export function SearchForm({ def, onSearch, omit = [] }: Props) {
  const { t, language } = useI18n();
  const [form] = Form.useForm();
  const scope = useMemo<ResourceFormScope>(() => ({ def, purpose: "search" }), [def]);
  // The platform administrator narrows to one tenant; nobody else is offered (or could use) it.
  const byTenant = useShowsTenant(def) && !omit.includes("tenantId");
  const submit = (values: Record<string, unknown>) => {
    const tenantId = byTenant && typeof values.tenantId === "string" ? values.tenantId : "";
    onSearch({ ...toFilters(def, values), ...(tenantId ? { tenantId } : {}) });
  };
  // A picked meter belongs to the picked energy type: another type empties it.
  const onValuesChange = (changed: Record<string, unknown>) => {
    for (const name of Object.keys(changed)) {
      const stale = dependentFields(def, name, "search");
      if (stale.length > 0) form.setFieldsValue(Object.fromEntries(stale.map((s) => [s, undefined])));
    }
  };
  return (
    <ResourceFormProvider value={scope}>
      <Form
        form={form}
        layout="inline"
        // Field ids become search_<field>: the add dialog's form on the same page keeps the bare
        // names, so each label points at its own control.
        name="search"
        onFinish={submit}
        onValuesChange={onValuesChange}
        data-testid="crud-search"
        style={{ rowGap: 12 }}
      >
        {byTenant && (
          <Form.Item name="tenantId" label={t("crud.tenant")}>
            <TenantFilter shown={byTenant} />
          </Form.Item>
        )}
        {searchFields(def)
          .filter(([name, f]) => f.search !== "range" && !omit.includes(name))
          .map(([name, field]) => (
            <Form.Item key={name} name={name} label={fieldLabel(def, name, language)}>
              {field.dict || field.dictBiz ? (
                <DictionaryFilter field={field} />
              ) : field.ref || field.refBy ? (
                <RefPicker name={name} field={field} data-testid={`search-${name}`} />
              ) : (
                <Input allowClear style={{ width: 180 }} data-testid={`search-${name}`} />
              )}
            </Form.Item>
          ))}
        {rangeNames(def).map((name) => (
          <Form.Item key={name} name={name} label={fieldLabel(def, name, language)}>
            <DateRangeInput startLabel={t("crud.startTime")} endLabel={t("crud.endTime")} />
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
    </ResourceFormProvider>
  );
}
