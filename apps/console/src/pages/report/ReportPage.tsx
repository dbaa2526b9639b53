import { website } from "@meterline/contracts";
import type { TableColumnsType } from "antd";
import { Alert, Button, Card, Empty, Input, Pagination, Space, Table, Tag, Typography, theme } from "antd";
import type { Dayjs } from "dayjs";
import dayjs from "dayjs";
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { reportNetworkError } from "../../app/api.ts";
import { startDownload } from "../../app/download.ts";
import { useFeedback } from "../../app/feedback.ts";
import { LoadFailed } from "../../components/LoadFailed.tsx";
import { usePaged } from "../../components/usePaged.ts";
import { DateRangeInput } from "../../crud/DateRangeInput.tsx";
import { useI18n } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { type DesignerStart, ReportDesigner } from "./ReportDesigner.tsx";
import {
  type Catalog,
  loadCatalog,
  loadReports,
  type ReportDefinition,
  type ReportItem,
  type ReportResult,
  removeReports,
  reportExportPath,
  runReport,
  saveReport,
} from "./report-calls.ts";

const ReportChart = lazy(() => import("./ReportChart.tsx"));

const DAY = "YYYY-MM-DD";
const RUN_LIMIT = 1000;

/** What is shown under the list: the run of a saved report (it can export) or a preview. */
interface Shown {
  id?: string;
  result: ReportResult;
}

const NEW_DEFINITION: ReportDefinition = {
  dataset: "daily_usage",
  groupBy: [],
  measures: [],
  filters: [],
  chart: "bar",
};

/**
 * 报表: the tenant's report definitions and the shipped ones; each runs into a chart and a table
 * (over a date range for dated data) and exports as Excel or PDF; new ones are designed by picking
 * a dataset, group keys, measures, filters and a chart, never by writing SQL.
 */
export default function ReportPage() {
  const { t, language } = useI18n();
  const { message, modal } = useFeedback();
  const { token } = theme.useToken();
  const permission = useConsole((state) => state.permission);
  const [catalog, setCatalog] = useState<Catalog | null>(null);
  const [search, setSearch] = useState("");
  const loader = useCallback(
    (current: number, size: number) => loadReports({ current, size, ...(search ? { name: search } : {}) }),
    [search],
  );
  const list = usePaged(loader);
  const load = () => list.load();
  const [designing, setDesigning] = useState<DesignerStart | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null]>([null, null]);
  const [running, setRunning] = useState(false);

  useEffect(() => {
    loadCatalog().then(setCatalog).catch(reportNetworkError);
  }, []);

  const datasetLabel = (key: string | undefined) => {
    const d = catalog?.datasets.find((x) => x.key === key);
    return d ? (language === "en" ? d.label.en : d.label.zh) : (key ?? "");
  };

  const rangeQuery = (value: [Dayjs | null, Dayjs | null]) => ({
    ...(value[0] ? { dateFrom: value[0].format(DAY) } : {}),
    ...(value[1] ? { dateTo: value[1].format(DAY) } : {}),
  });

  const run = async (
    body: { id?: string; definition?: ReportDefinition },
    dates: [Dayjs | null, Dayjs | null],
    name?: string,
  ) => {
    setRunning(true);
    try {
      const result = await runReport({ ...body, ...rangeQuery(dates) });
      setShown({ ...(body.id ? { id: body.id } : {}), result: name ? { ...result, name } : result });
    } catch (failure) {
      reportNetworkError(failure);
    } finally {
      setRunning(false);
    }
  };

  const runSaved = (row: ReportItem) => {
    const d = row.definition;
    const dates: [Dayjs | null, Dayjs | null] = [
      d?.dateFrom ? dayjs(d.dateFrom) : null,
      d?.dateTo ? dayjs(d.dateTo) : null,
    ];
    setRange(dates);
    void run({ id: row.id }, dates);
  };

  const remove = (row: ReportItem) =>
    modal.confirm({
      title: t("report.removeConfirm", { name: row.name }),
      okButtonProps: { danger: true, "data-testid": "report-remove-ok" },
      onOk: async () => {
        try {
          await removeReports(row.id);
        } catch (failure) {
          reportNetworkError(failure);
          return;
        }
        message.success(t("report.removed"));
        if (shown?.id === row.id) setShown(null);
        void load();
      },
    });

  const save = async (start: { id?: string; name: string; definition: ReportDefinition }) => {
    try {
      const { id } = await saveReport(start);
      message.success(t("report.saved"));
      setDesigning(null);
      void load();
      const dates: [Dayjs | null, Dayjs | null] = [
        start.definition.dateFrom ? dayjs(start.definition.dateFrom) : null,
        start.definition.dateTo ? dayjs(start.definition.dateTo) : null,
      ];
      setRange(dates);
      await run({ id }, dates);
    } catch (failure) {
      reportNetworkError(failure);
    }
  };

  const columns: TableColumnsType<ReportItem> = [
    {
      key: "name",
      title: t("report.name"),
      className: "ml-nowrap",
      render: (_: unknown, row) => (
        <Space>
          {row.name}
          {row.builtin ? <Tag>{t("report.builtin")}</Tag> : null}
        </Space>
      ),
    },
    {
      key: "dataset",
      title: t("report.dataset"),
      render: (_: unknown, row) => datasetLabel(row.definition?.dataset),
    },
    {
      key: "chart",
      title: t("report.chart"),
      render: (_: unknown, row) => (row.definition ? t(`report.chart.${row.definition.chart}`) : ""),
    },
    { key: "updateTime", dataIndex: "updateTime", title: t("report.updated"), className: "ml-nowrap" },
    {
      key: "actions",
      title: t("crud.actions"),
      fixed: "right" as const,
      className: "ml-nowrap",
      render: (_: unknown, row) => (
        <Space size={0} wrap={false}>
          {permission.report_list_view ? (
            <Button type="link" onClick={() => runSaved(row)} data-testid="report-run">
              {t("report.run")}
            </Button>
          ) : null}
          {!row.builtin && permission.report_list_edit && row.definition ? (
            <Button
              type="link"
              onClick={() => setDesigning({ id: row.id, name: row.name, definition: row.definition! })}
              data-testid="report-edit"
            >
              {t("report.edit")}
            </Button>
          ) : null}
          {permission.report_list_add && row.definition ? (
            <Button
              type="link"
              onClick={() =>
                setDesigning({ name: t("report.copyName", { name: row.name }), definition: row.definition! })
              }
              data-testid="report-copy"
            >
              {t("report.copy")}
            </Button>
          ) : null}
          {!row.builtin && permission.report_list_delete ? (
            <Button type="link" danger onClick={() => remove(row)} data-testid="report-remove">
              {t("report.remove")}
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }} data-testid="reports">
      <Card>
        <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
          <Space wrap>
            <Input.Search
              allowClear
              placeholder={t("report.search")}
              aria-label={t("report.search")}
              onSearch={(value) => {
                setSearch(value.trim());
              }}
              style={{ width: 280 }}
            />
            {permission.report_list_add && catalog ? (
              <Button
                type="primary"
                onClick={() => setDesigning({ name: "", definition: NEW_DEFINITION })}
                data-testid="report-create"
              >
                {t("report.create")}
              </Button>
            ) : null}
          </Space>
          {list.error ? (
            <LoadFailed error={list.error} onRetry={() => void load()} testId="report-error" />
          ) : (
            <>
              <Table<ReportItem>
                rowKey="id"
                size="middle"
                loading={list.loading}
                dataSource={list.rows}
                columns={columns}
                scroll={{ x: "max-content" }}
                locale={{ emptyText: <Empty description={t("report.empty")} /> }}
                pagination={false}
                data-testid="report-list"
              />
              <Pagination
                align="end"
                current={list.current}
                pageSize={list.size}
                total={list.total}
                pageSizeOptions={website.pageSizes.map(String)}
                showSizeChanger
                showTotal={(count) => t("crud.total", { total: count })}
                onChange={(current, size) => void list.load(size === list.size ? current : 1, size)}
              />
            </>
          )}
        </Space>
      </Card>
      {shown ? (
        <ReportOutput
          shown={shown}
          range={range}
          setRange={setRange}
          running={running}
          canExport={Boolean(permission.report_list_export)}
          textColor={token.colorTextSecondary}
          dated={catalog?.datasets.find((d) => d.key === shown.result.definition.dataset)?.dated ?? false}
          onRun={() =>
            void run(
              shown.id ? { id: shown.id } : { definition: shown.result.definition },
              range,
              shown.id ? undefined : shown.result.name,
            )
          }
        />
      ) : null}
      {catalog ? (
        <ReportDesigner
          catalog={catalog}
          start={designing}
          canSave={Boolean(designing?.id ? permission.report_list_edit : permission.report_list_add)}
          onClose={() => setDesigning(null)}
          onPreview={(name, definition) => {
            setDesigning(null);
            setRange([
              definition.dateFrom ? dayjs(definition.dateFrom) : null,
              definition.dateTo ? dayjs(definition.dateTo) : null,
            ]);
            void run({ definition }, [null, null], name);
          }}
          onSave={save}
        />
      ) : null}
    </Space>
  );
}

interface OutputProps {
  shown: Shown;
  range: [Dayjs | null, Dayjs | null];
  setRange: (value: [Dayjs | null, Dayjs | null]) => void;
  running: boolean;
  /** The dataset has dates: the run can be narrowed to a range. */
  dated: boolean;
  canExport: boolean;
  textColor: string;
  onRun: () => void;
}

/** A run: the date range to run again over, the exports, the chart and the table. */
function ReportOutput({ shown, range, setRange, running, dated, canExport, textColor, onRun }: OutputProps) {
  const { t, language } = useI18n();
  const { result } = shown;
  const title = (c: { zh: string; en: string }) => (language === "en" ? c.en : c.zh);
  const { categories, series } = useMemo(() => {
    const groups = result.columns.filter((c) => !c.measure);
    const pick = (c: { zh: string; en: string }) => (language === "en" ? c.en : c.zh);
    return {
      categories: result.rows.map((r) => groups.map((g) => r[g.key] ?? "—").join(" / ") || t("report.all")),
      series: result.columns
        .filter((c) => c.measure)
        .map((m) => ({ name: pick(m), values: result.rows.map((r) => r[m.key] ?? null) })),
    };
  }, [result, language, t]);
  const exportRange = {
    ...(range[0] ? { dateFrom: range[0].format(DAY) } : {}),
    ...(range[1] ? { dateTo: range[1].format(DAY) } : {}),
  };
  const columns = result.columns.map((c) => ({
    key: c.key,
    dataIndex: c.key,
    title: title(c),
    className: "ml-nowrap",
    ...(c.measure ? { align: "right" as const } : {}),
  }));
  const chart = result.definition.chart;
  return (
    <Card title={t("report.result", { name: result.name })} data-testid="report-output">
      <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
        <Space wrap>
          {dated ? (
            <DateRangeInput
              showTime={false}
              value={range}
              onChange={setRange}
              startLabel={t("report.dateFrom")}
              endLabel={t("report.dateTo")}
            />
          ) : null}
          <Button onClick={onRun} loading={running} data-testid="report-rerun">
            {t("report.run")}
          </Button>
          {canExport ? (
            shown.id ? (
              <>
                <Button
                  onClick={() => startDownload(reportExportPath(shown.id!, "xlsx", exportRange))}
                  data-testid="report-export-xlsx"
                >
                  {t("report.exportExcel")}
                </Button>
                <Button
                  onClick={() => startDownload(reportExportPath(shown.id!, "pdf", exportRange))}
                  data-testid="report-export-pdf"
                >
                  {t("report.exportPdf")}
                </Button>
              </>
            ) : (
              <Typography.Text type="secondary">{t("report.exportNeedsSave")}</Typography.Text>
            )
          ) : null}
        </Space>
        {result.truncated ? (
          <Alert type="warning" showIcon title={t("report.truncated", { limit: RUN_LIMIT })} />
        ) : null}
        {chart !== "table" && result.rows.length > 0 ? (
          <Suspense fallback={<div style={{ height: 320 }} />}>
            <ReportChart
              kind={chart}
              categories={categories}
              series={series}
              textColor={textColor}
              summary={t("report.chartSummary", { name: result.name })}
            />
          </Suspense>
        ) : null}
        <Table
          rowKey={(_, i) => String(i)}
          size="small"
          dataSource={result.rows}
          columns={columns}
          scroll={{ x: "max-content" }}
          locale={{ emptyText: <Empty description={t("report.noRows")} /> }}
          pagination={{ pageSize: 20, showSizeChanger: false }}
          data-testid="report-table"
        />
      </Space>
    </Card>
  );
}
