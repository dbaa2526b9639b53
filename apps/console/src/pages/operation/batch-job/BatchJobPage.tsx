import {
  BATCH_JOB_KINDS,
  BATCH_JOB_STATES,
  type BatchJobKind,
  type BatchJobState,
  type BatchJobSummary,
  website,
} from "@meterline/contracts";
import type { TableColumnsType } from "antd";
import { Button, Card, Empty, Select, Space, Table } from "antd";
import { useCallback, useEffect, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { LoadFailed } from "../../../components/LoadFailed.tsx";
import { type MessageKey, useT } from "../../../i18n/index.tsx";
import { BATCH_JOB_PATH, type JobFilters, loadJobPage } from "./batch-job-calls.ts";
import { JobDetailDrawer } from "./JobDetailDrawer.tsx";
import { JobProgressBar } from "./JobProgressBar.tsx";
import { JobStateTag } from "./JobStateTag.tsx";
import { actionWords } from "./job-words.ts";
import { useJobActions } from "./useJobActions.tsx";
import { usePaged, useVisibleInterval } from "./usePagedJobs.ts";

/** The table follows running jobs a little less often than an open job does. */
const TABLE_POLL_MS = 2000;

interface Shown {
  id: string;
  tenantId?: string;
}

/** The job a link asks for (`?id=…&tenantId=…`, from a meter screen's progress dialog). */
function askedJob(search: string): Shown | null {
  const params = new URLSearchParams(search);
  const id = params.get("id");
  if (!id) return null;
  const tenantId = params.get("tenantId");
  return tenantId ? { id, tenantId } : { id };
}

/**
 * 批量任务 (运行控制): every batch on meters as one job, newest first, with what it does in words,
 * who started it and when, its progress in parts and its state; filters by kind and state; each row
 * opens its detail and, as the user's buttons allow, cancels it or retries its failed meters. Rows
 * still running are read again every two seconds while the page is visible.
 */
export default function BatchJobPage() {
  const t = useT();
  const navigate = useNavigate();
  const { search } = useLocation();
  const [filters, setFilters] = useState<JobFilters>({});
  const [shown, setShown] = useState<Shown | null>(() => askedJob(search));
  useEffect(() => {
    const asked = askedJob(search);
    if (asked) setShown(asked);
  }, [search]);

  const loader = useCallback(
    (current: number, size: number) => loadJobPage(filters, current, size),
    [filters],
  );
  const page = usePaged<BatchJobSummary>(loader);
  const { load } = page;
  const reload = useCallback(() => void load(undefined, undefined, true), [load]);
  useVisibleInterval(
    page.rows.some((job) => job.state === "running"),
    TABLE_POLL_MS,
    reload,
  );

  const open = (job: Shown) =>
    setShown(job.tenantId ? { id: job.id, tenantId: job.tenantId } : { id: job.id });
  const actions = useJobActions(reload, (id) => {
    reload();
    setShown((s) => ({ ...s, id }));
  });
  const close = () => {
    setShown(null);
    // The address no longer names a job: reopening the tab does not reopen the drawer.
    if (search) navigate(BATCH_JOB_PATH, { replace: true });
  };

  const columns: TableColumnsType<BatchJobSummary> = [
    {
      key: "id",
      title: t("batchJob.id"),
      dataIndex: "id",
      className: "ml-nowrap",
    },
    {
      key: "action",
      title: t("batchJob.action"),
      className: "ml-nowrap",
      render: (_: unknown, job) => <span data-testid="job-action">{actionWords(job, t)}</span>,
    },
    { key: "total", title: t("batchJob.total"), dataIndex: "total", align: "right" },
    {
      key: "progress",
      title: t("batchJob.progress"),
      width: 360,
      render: (_: unknown, job) => <JobProgressBar job={job} compact />,
    },
    {
      key: "state",
      title: t("batchJob.state"),
      dataIndex: "state",
      render: (state: BatchJobState) => <JobStateTag state={state} />,
    },
    { key: "operator", title: t("batchJob.operator"), dataIndex: "createUserName", className: "ml-nowrap" },
    { key: "createTime", title: t("batchJob.createTime"), dataIndex: "createTime", className: "ml-nowrap" },
    {
      key: "actions",
      title: t("crud.actions"),
      fixed: "right",
      className: "ml-nowrap",
      render: (_: unknown, job) => (
        <Space size={0}>
          <Button type="link" onClick={() => open(job)} data-testid="job-view">
            {t("batchJob.view")}
          </Button>
          {actions.mayCancel(job) ? (
            <Button type="link" danger onClick={() => actions.cancel(job)} data-testid="job-cancel">
              {t("batchJob.cancel")}
            </Button>
          ) : null}
          {actions.mayRetry(job) ? (
            <Button type="link" onClick={() => actions.retry(job)} data-testid="job-retry">
              {t("batchJob.retry")}
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];

  const select = <V extends string>(
    testId: string,
    label: MessageKey,
    value: V | undefined,
    options: readonly V[],
    words: (v: V) => string,
    onChange: (v: V | undefined) => void,
  ) => (
    <Select<V>
      style={{ minWidth: 160 }}
      allowClear
      aria-label={t(label)}
      placeholder={`${t(label)}: ${t("batchJob.any")}`}
      value={value}
      onChange={(v) => onChange(v ?? undefined)}
      options={options.map((v) => ({ value: v, label: words(v) }))}
      data-testid={testId}
      popupMatchSelectWidth={false}
    />
  );

  return (
    <Card data-testid="batch-jobs">
      <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
        <Space wrap>
          {select<BatchJobKind>(
            "job-filter-kind",
            "batchJob.kind",
            filters.kind,
            BATCH_JOB_KINDS,
            (k) => t(`batchJob.kindName.${k}` as MessageKey),
            (kind) => setFilters((f) => ({ ...f, kind })),
          )}
          {select<BatchJobState>(
            "job-filter-state",
            "batchJob.state",
            filters.state,
            BATCH_JOB_STATES,
            (s) => t(`batchJob.jobState.${s}` as MessageKey),
            (state) => setFilters((f) => ({ ...f, state })),
          )}
          <Button onClick={() => void load()} data-testid="job-refresh">
            {t("batchJob.search")}
          </Button>
          <Button onClick={() => setFilters({})}>{t("batchJob.reset")}</Button>
        </Space>
        {page.error ? (
          <LoadFailed error={page.error} onRetry={() => void load()} testId="jobs-error" />
        ) : (
          <Table<BatchJobSummary>
            rowKey="id"
            size="middle"
            loading={page.loading}
            dataSource={page.rows}
            columns={columns}
            scroll={{ x: "max-content" }}
            locale={{ emptyText: <Empty description={t("batchJob.empty")} /> }}
            data-testid="jobs-table"
            pagination={{
              current: page.current,
              pageSize: page.size,
              total: page.total,
              pageSizeOptions: website.pageSizes.map(String),
              showSizeChanger: true,
              showTotal: (count) => t("crud.total", { total: count }),
              onChange: (p, size) => void load(size === page.size ? p : 1, size),
            }}
          />
        )}
      </Space>
      {shown ? (
        <JobDetailDrawer
          key={shown.id}
          id={shown.id}
          tenantId={shown.tenantId}
          actions={actions}
          onOpenJob={(id) => setShown((s) => ({ ...s, id }))}
          onClose={close}
        />
      ) : null}
    </Card>
  );
}
