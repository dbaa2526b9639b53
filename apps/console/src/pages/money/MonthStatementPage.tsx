import type { ResourceDef } from "@meterline/contracts";
import { Button, Card, DatePicker, Empty, Form, Select, Space, Spin } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useCallback, useMemo, useState } from "react";
import { startDownload } from "../../app/download.ts";
import { LoadFailed } from "../../components/LoadFailed.tsx";
import { useLoaded } from "../../components/useLoaded.ts";
import { ResourceFormProvider, type ResourceFormScope } from "../../crud/form-context.ts";
import { RefPicker } from "../../crud/RefPicker.tsx";
import { type MessageKey, useI18n } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { AccountPicker } from "./AccountPicker.tsx";
import { MonthStatementView } from "./MonthStatementView.tsx";
import {
  loadMonthStatement,
  type MonthStatementQuery,
  monthStatementExcelHref,
  monthStatementPdfHref,
  STATEMENT_SCOPES,
  type StatementScope,
} from "./month-statement-calls.ts";

/** The scope pickers, declared like a resource's links so the registry's own pickers serve them. */
const scopeDef: ResourceDef = {
  name: "monthStatement",
  table: "",
  service: "blade-pms",
  path: "",
  listVerb: "page",
  tenantScoped: true,
  softDelete: false,
  audit: false,
  readOnly: true,
  fields: {
    building: { type: "id", search: "equal", ref: { resource: "area", label: "areaName" } },
    room: { type: "id", search: "equal", ref: { resource: "room", label: "roomName" } },
    owner: { type: "id", search: "equal", ref: { resource: "owner", label: "ownerName" } },
  },
};
const formScope: ResourceFormScope = { def: scopeDef, purpose: "search" };

interface Values {
  month: Dayjs;
  scope: StatementScope;
  building?: string;
  room?: string;
  owner?: string;
  account?: string;
}

/**
 * 月度对账单: a month of billed money (last month by default) for a building, room, owner, account
 * or the whole site, from the ledger; downloads as Excel and PDF.
 */
export default function MonthStatementPage() {
  const { t } = useI18n();
  const [form] = Form.useForm<Values>();
  const scope = Form.useWatch("scope", form) ?? "building";
  const canExcel = useConsole((state) => Boolean(state.permission.monthStatement_export));
  const canPdf = useConsole((state) => Boolean(state.permission.monthStatement_pdf));
  const [query, setQuery] = useState<MonthStatementQuery | null>(null);
  const [paging, setPaging] = useState({ current: 1, size: 20 });
  const initial = useMemo(() => ({ month: dayjs().subtract(1, "month"), scope: "building" as const }), []);

  const load = useCallback(
    () => (query ? loadMonthStatement(query, paging.current, paging.size) : Promise.resolve(null)),
    [query, paging],
  );
  const { data: statement, error, loading } = useLoaded(load);

  const submit = (values: Values) => {
    const scopeId = values.scope === "site" ? undefined : values[values.scope];
    setPaging((p) => ({ ...p, current: 1 }));
    setQuery({ month: values.month.format("YYYY-MM"), scope: values.scope, ...(scopeId ? { scopeId } : {}) });
  };

  const target = (() => {
    if (scope === "site") return null;
    const rules = [{ required: true, message: t("monthStatement.targetRequired") }];
    const label = t(`monthStatement.scope.${scope}` as MessageKey);
    if (scope === "account")
      return (
        <Form.Item name="account" label={label} rules={rules}>
          <AccountPicker />
        </Form.Item>
      );
    const field = scopeDef.fields[scope];
    return (
      <Form.Item key={scope} name={scope} label={label} rules={rules}>
        {field ? <RefPicker name={scope} field={field} /> : null}
      </Form.Item>
    );
  })();

  let body = (
    <Card>
      <Empty description={t("monthStatement.pick")} data-testid="month-statement-empty" />
    </Card>
  );
  if (query && error)
    body = (
      <Card>
        <LoadFailed error={error} onRetry={() => setQuery({ ...query })} testId="month-statement-error" />
      </Card>
    );
  else if (query && (loading || !statement))
    body = (
      <Card>
        <Spin />
      </Card>
    );
  else if (statement)
    body = (
      <MonthStatementView statement={statement} onPage={(current, size) => setPaging({ current, size })} />
    );

  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }} data-testid="month-statement-page">
      <Card>
        <ResourceFormProvider value={formScope}>
          <Form
            form={form}
            layout="inline"
            name="monthStatement"
            initialValues={initial}
            onFinish={submit}
            style={{ rowGap: 12 }}
          >
            <Form.Item name="month" label={t("monthStatement.month")} rules={[{ required: true }]}>
              <DatePicker picker="month" allowClear={false} data-testid="month-statement-month" />
            </Form.Item>
            <Form.Item name="scope" label={t("monthStatement.scope")}>
              <Select
                style={{ width: 140 }}
                data-testid="month-statement-scope"
                options={STATEMENT_SCOPES.map((s) => ({
                  value: s,
                  label: t(`monthStatement.scope.${s}` as MessageKey),
                }))}
              />
            </Form.Item>
            {target}
            <Form.Item>
              <Space wrap>
                <Button type="primary" htmlType="submit" data-testid="month-statement-show">
                  {t("monthStatement.show")}
                </Button>
                {canExcel && (
                  <Button
                    disabled={!query}
                    onClick={() => query && startDownload(monthStatementExcelHref(query))}
                    data-testid="month-statement-excel"
                  >
                    {t("monthStatement.excel")}
                  </Button>
                )}
                {canPdf && (
                  <Button
                    disabled={!query}
                    onClick={() => query && startDownload(monthStatementPdfHref(query))}
                    data-testid="month-statement-pdf"
                  >
                    {t("monthStatement.pdf")}
                  </Button>
                )}
              </Space>
            </Form.Item>
          </Form>
        </ResourceFormProvider>
      </Card>
      {body}
    </Space>
  );
}
