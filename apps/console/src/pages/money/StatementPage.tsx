import { Button, Card, Empty, Form, Space, Spin } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import { startDownload } from "../../app/download.ts";
import { LoadFailed } from "../../components/LoadFailed.tsx";
import { useLoaded } from "../../components/useLoaded.ts";
import { DateRangeInput } from "../../crud/DateRangeInput.tsx";
import { usePlatformAdministrator } from "../../crud/tenant-column.tsx";
import { useI18n } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { AccountPicker } from "./AccountPicker.tsx";
import {
  type AccountChoice,
  loadStatement,
  type StatementQuery,
  statementExportHref,
} from "./money-calls.ts";
import { StatementView } from "./StatementView.tsx";
import { defaultPeriod, periodProblem, statementQuery } from "./statement-period.ts";
import "./statement-print.css";

type Period = [Dayjs | null, Dayjs | null];

/** The class on <html> that makes printing show the statement alone (statement-print.css). */
const PRINTING = "ml-print-statement";

/** Prints the statement alone; the class comes off once the print dialog closes. */
function printStatement() {
  const root = document.documentElement;
  root.classList.add(PRINTING);
  window.addEventListener("afterprint", () => root.classList.remove(PRINTING), { once: true });
  window.print();
}

/**
 * 账户对账单: an owner's account over a period (this month by default): opening and closing
 * balances, each closed day, the period's recharges; as Excel and as a printable page. Opened
 * with `?accountId=` (from the opening and closing lists) it shows that account at once.
 */
export default function StatementPage() {
  const { t } = useI18n();
  const [form] = Form.useForm();
  const [params] = useSearchParams();
  const linked = params.get("accountId");
  // The platform administrator's link names the account's tenant; the server ignores it for others.
  const linkedTenant = params.get("tenantId") ?? undefined;
  // So does the picker's account: the platform administrator picks from every tenant's.
  const [picked, setPicked] = useState<AccountChoice>();
  const platform = usePlatformAdministrator();
  const withTenant = useCallback(
    (q: StatementQuery): StatementQuery => {
      const tenantId =
        q.accountId === picked?.id ? picked.tenantId : q.accountId === linked ? linkedTenant : undefined;
      return tenantId ? { ...q, tenantId } : q;
    },
    [linked, linkedTenant, picked],
  );
  const canExport = useConsole((state) => Boolean(state.permission.accountStatement_export));
  const [query, setQuery] = useState<StatementQuery | null>(null);
  const initial = useMemo(() => ({ period: defaultPeriod(dayjs()) }), []);

  useEffect(() => {
    if (!linked) return;
    const [from, to] = defaultPeriod(dayjs());
    form.setFieldsValue({ accountId: linked, period: [from, to] });
    setQuery(withTenant(statementQuery(linked, from, to)));
  }, [linked, form, withTenant]);

  const load = useCallback(() => (query ? loadStatement(query) : Promise.resolve(null)), [query]);
  const { data: statement, error, loading } = useLoaded(load);
  const known = useMemo<AccountChoice | undefined>(
    () => (statement ? { ...statement.account } : undefined),
    [statement],
  );

  const submit = (values: { accountId: string; period: Period }) => {
    const [from, to] = values.period;
    if (from && to) setQuery(withTenant(statementQuery(values.accountId, from, to)));
  };

  let body = (
    <Card>
      <Empty
        description={
          <>
            <div>{t("statement.pickAccount")}</div>
            <div>{t("statement.accountSearch")}</div>
          </>
        }
        data-testid="statement-empty"
      />
    </Card>
  );
  if (query && error)
    body = (
      <Card>
        <LoadFailed error={error} onRetry={() => setQuery({ ...query })} testId="statement-error" />
      </Card>
    );
  else if (query && (loading || !statement))
    body = (
      <Card>
        <Spin />
      </Card>
    );
  else if (statement) body = <StatementView statement={statement} />;

  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }} data-testid="statement-page">
      <Card className="ml-no-print">
        <Form
          form={form}
          layout="inline"
          name="statement"
          initialValues={initial}
          onFinish={submit}
          style={{ rowGap: 12 }}
        >
          <Form.Item
            name="accountId"
            label={t("statement.account")}
            rules={[{ required: true, message: t("statement.accountRequired") }]}
          >
            <AccountPicker known={known} onPick={setPicked} showTenant={platform} />
          </Form.Item>
          <Form.Item
            name="period"
            label={t("statement.period")}
            rules={[
              {
                validator: async (_, value: Period | undefined) => {
                  const problem = periodProblem(value?.[0] ?? null, value?.[1] ?? null);
                  if (problem) throw new Error(t(problem));
                },
              },
            ]}
          >
            <DateRangeInput
              startLabel={t("moneyList.startDay")}
              endLabel={t("moneyList.endDay")}
              showTime={false}
            />
          </Form.Item>
          <Form.Item>
            <Space wrap>
              <Button type="primary" htmlType="submit" data-testid="statement-show">
                {t("statement.show")}
              </Button>
              {canExport && (
                <Button
                  disabled={!query}
                  onClick={() => query && startDownload(statementExportHref(query))}
                  data-testid="statement-excel"
                >
                  {t("statement.excel")}
                </Button>
              )}
              <Button disabled={!statement} onClick={printStatement} data-testid="statement-print">
                {t("statement.print")}
              </Button>
            </Space>
          </Form.Item>
        </Form>
      </Card>
      {body}
    </Space>
  );
}
