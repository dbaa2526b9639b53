import type { BatchItemFilter, BatchJobItem, BatchJobSummary, FieldDef } from "@meterline/contracts";
import { website } from "@meterline/contracts";
import type { TableColumnsType } from "antd";
import { Alert, Badge, Button, Descriptions, Drawer, Empty, Segmented, Space, Spin, Table } from "antd";
import { useCallback, useEffect, useState } from "react";
import { LoadFailed } from "../../../components/LoadFailed.tsx";
import { useDictionary } from "../../../crud/dictionary.ts";
import { type MessageKey, useI18n } from "../../../i18n/index.tsx";
import { ITEM_FILTERS, loadJobItems } from "./batch-job-calls.ts";
import { JobProgressBar } from "./JobProgressBar.tsx";
import { JobStateTag } from "./JobStateTag.tsx";
import { actionWords } from "./job-words.ts";
import type { JobActions } from "./useJobActions.tsx";
import { useJobProgress } from "./useJobProgress.ts";
import { usePaged } from "./usePagedJobs.ts";

type Status = "success" | "error" | "warning" | "processing" | "default";
/** The dot beside an item's state; the words keep the text colour. */
const ITEM_STATUS: Partial<Record<BatchJobItem["state"], Status>> = {
  success: "success",
  fail: "error",
  timeout: "warning",
  sent: "processing",
  queued: "processing",
};

interface Props {
  id: string;
  tenantId?: string;
  actions: JobActions;
  /** Opens another job here (the one retried, or the retry just created). */
  onOpenJob: (id: string) => void;
  onClose: () => void;
}

/** The screen a job came from, in words (the command log's own dictionary). */
const sourceField: FieldDef = { type: "string", dict: "command_source" };

/** How many items a filter shows, from the job's own counts. */
const countOf = (job: BatchJobSummary, filter: BatchItemFilter) => job[filter];
/** The collector as the registry shows it: name (code). */
const collectorLabel = ({ collectorName, collectorCode }: NonNullable<BatchJobItem["waitingFor"]>) =>
  collectorName && collectorName !== collectorCode ? `${collectorName}(${collectorCode})` : collectorCode;

/**
 * One job: what it does, who started it and when, its counts as they settle (read every second
 * while it runs), and its meters filtered by state with the full meter number, room and reason.
 */
export function JobDetailDrawer({ id, tenantId, actions, onOpenJob, onClose }: Props) {
  const { t, language } = useI18n();
  const sources = useDictionary(sourceField, language);
  const { job, error, refresh } = useJobProgress(id, tenantId);
  const [filter, setFilter] = useState<BatchItemFilter | "all">("all");
  const loader = useCallback(
    (current: number, size: number) =>
      loadJobItems(id, filter === "all" ? undefined : filter, current, size, tenantId),
    [id, filter, tenantId],
  );
  const items = usePaged(loader);
  const { load } = items;
  // The items follow the counts while the job runs (quietly: no spinner every second).
  const settled = job ? job.total - job.remaining : 0;
  useEffect(() => {
    if (settled > 0) void load(undefined, undefined, true);
  }, [settled, load]);

  const columns: TableColumnsType<BatchJobItem> = [
    {
      key: "productCode",
      title: t("batchJob.meter"),
      dataIndex: "productCode",
      className: "ml-nowrap",
      render: (code: string) => <span data-testid="job-item-meter">{code}</span>,
    },
    { key: "roomName", title: t("batchJob.room"), dataIndex: "roomName", className: "ml-nowrap" },
    {
      key: "energyType",
      title: t("batchJob.energyType"),
      dataIndex: "energyType",
      render: (energy: number) => t(`batchJob.energy.${energy === 2 ? 2 : 1}`),
    },
    {
      key: "state",
      title: t("batchJob.state"),
      dataIndex: "state",
      render: (state: BatchJobItem["state"]) => (
        <span data-testid="job-item-state" data-state={state} className="ml-nowrap">
          <Badge
            status={ITEM_STATUS[state] ?? "default"}
            text={t(`batchJob.itemState.${state}` as MessageKey)}
          />
        </span>
      ),
    },
    {
      key: "reason",
      title: t("batchJob.reason"),
      dataIndex: "reason",
      // A meter behind an offline collector is waiting for it, not stuck: say which one.
      render: (reason: string, item) => (
        <span data-testid="job-item-reason">
          {item.waitingFor
            ? t("batchJob.waitingFor", { collector: collectorLabel(item.waitingFor) })
            : reason}
        </span>
      ),
    },
    { key: "updateTime", title: t("batchJob.updateTime"), dataIndex: "updateTime", className: "ml-nowrap" },
  ];

  const buttons = job ? (
    <Space>
      {actions.mayCancel(job) ? (
        <Button danger onClick={() => actions.cancel(job)} data-testid="job-detail-cancel">
          {t("batchJob.cancel")}
        </Button>
      ) : null}
      {actions.mayRetry(job) ? (
        <Button onClick={() => actions.retry(job)} data-testid="job-detail-retry">
          {t("batchJob.retry")}
        </Button>
      ) : null}
    </Space>
  ) : null;

  return (
    <Drawer
      open
      size="large"
      title={t("batchJob.detailTitle", { id })}
      extra={buttons}
      onClose={onClose}
      destroyOnHidden
    >
      <div data-testid="job-detail" data-job-id={id}>
        {!job && error ? <LoadFailed error={error} onRetry={refresh} testId="job-detail-error" /> : null}
        {!job && !error ? (
          <Spin tip={t("batchJob.loading")}>
            <div style={{ height: 80 }} />
          </Spin>
        ) : null}
        {job ? (
          <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
            <Descriptions size="small" column={2} bordered>
              <Descriptions.Item label={t("batchJob.action")}>{actionWords(job, t)}</Descriptions.Item>
              <Descriptions.Item label={t("batchJob.state")}>
                <JobStateTag state={job.state} />
              </Descriptions.Item>
              <Descriptions.Item label={t("batchJob.operator")}>{job.createUserName}</Descriptions.Item>
              <Descriptions.Item label={t("batchJob.total")}>{job.total}</Descriptions.Item>
              <Descriptions.Item label={t("batchJob.createTime")}>{job.createTime}</Descriptions.Item>
              <Descriptions.Item label={t("batchJob.finishTime")}>{job.finishTime ?? "—"}</Descriptions.Item>
              <Descriptions.Item label={t("batchJob.source")}>
                {sources.find((option) => option.value === job.source)?.label ?? (job.source || "—")}
              </Descriptions.Item>
              <Descriptions.Item label={t("batchJob.retryOf")}>
                {job.retryOf ? (
                  <Button type="link" size="small" onClick={() => onOpenJob(String(job.retryOf))}>
                    {job.retryOf}
                  </Button>
                ) : (
                  "—"
                )}
              </Descriptions.Item>
            </Descriptions>
            <JobProgressBar job={job} />
            {job.timeout > 0 ? <Alert type="warning" showIcon title={t("batchJob.timeoutHint")} /> : null}
            <Segmented<BatchItemFilter | "all">
              value={filter}
              onChange={setFilter}
              data-testid="job-item-filter"
              options={[
                { value: "all", label: `${t("batchJob.count.all")} ${job.total + job.skipped}` },
                ...ITEM_FILTERS.map((f) => ({
                  value: f,
                  label: `${t(`batchJob.count.${f}` as MessageKey)} ${countOf(job, f)}`,
                })),
              ]}
            />
            {items.error ? (
              <LoadFailed error={items.error} onRetry={() => void load()} testId="job-items-error" />
            ) : (
              <Table<BatchJobItem>
                rowKey="meterId"
                size="small"
                loading={items.loading}
                dataSource={items.rows}
                columns={columns}
                scroll={{ x: "max-content" }}
                locale={{ emptyText: <Empty description={t("batchJob.itemsEmpty")} /> }}
                data-testid="job-items"
                pagination={{
                  current: items.current,
                  pageSize: items.size,
                  total: items.total,
                  pageSizeOptions: website.pageSizes.map(String),
                  showSizeChanger: true,
                  showTotal: (count) => t("crud.total", { total: count }),
                  onChange: (page, size) => void load(size === items.size ? page : 1, size),
                }}
              />
            )}
          </Space>
        ) : null}
      </div>
    </Drawer>
  );
}
