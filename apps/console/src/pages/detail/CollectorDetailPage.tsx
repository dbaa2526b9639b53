import type { CollectorFileMeter, CollectorOverview } from "@meterline/contracts";
import { Card, Descriptions, Empty, Space, Table, Tag } from "antd";
import { Link } from "react-router";
import { useLiveChanges } from "../../app/live.ts";
import { useT } from "../../i18n/index.tsx";
import { DetailHead, DetailState } from "./DetailParts.tsx";
import { useDetailAddress, useOverview, useTabSubject } from "./detail-calls.ts";
import { type DetailLabels, useDetailLabels } from "./detail-labels.ts";
import { detailPath } from "./detail-paths.ts";

/**
 * Solid dark tag colours with white text (as the line loss states): antd's light presets fall below
 * 4.5:1 contrast at tag size.
 */
const ANSWERED = "#237804";
const SILENT = "#a8071a";

/** A concentrator's file rows (or the meters missing from it): point, address, protocol, port, last answer. */
function FileTable({
  rows,
  labels,
  testId,
}: {
  rows: readonly CollectorFileMeter[];
  labels: DetailLabels;
  testId: string;
}) {
  const t = useT();
  return (
    <Table<CollectorFileMeter>
      size="small"
      rowKey={(row) => `${row.pn ?? "-"}-${row.address}`}
      dataSource={[...rows]}
      pagination={false}
      data-testid={testId}
      columns={[
        { key: "pn", title: t("detail.collector.pn"), dataIndex: "pn", render: (pn) => pn ?? "" },
        {
          key: "address",
          title: t("detail.collector.address"),
          render: (_, row) =>
            row.meterId ? <Link to={detailPath("meter", row.meterId)}>{row.address}</Link> : row.address,
        },
        { key: "meterName", title: t("detail.meter.name"), dataIndex: "meterName" },
        {
          key: "protocol",
          title: t("detail.meter.protocol"),
          render: (_, row) => labels.protocol(row.protocolName),
        },
        { key: "port", title: t("detail.collector.port"), dataIndex: "port", render: (port) => port ?? "" },
        {
          key: "answered",
          title: t("detail.collector.answered"),
          render: (_, row) => (
            <Tag color={row.answered ? ANSWERED : SILENT} data-testid="collector-file-answered">
              {t(row.answered ? "detail.collector.answered.yes" : "detail.collector.answered.no")}
            </Tag>
          ),
        },
        {
          key: "lastPoll",
          title: t("detail.collector.lastPoll"),
          dataIndex: "lastPollTime",
          render: (at) => at ?? "",
        },
      ]}
    />
  );
}

function CollectorView({
  data,
  labels,
  reload,
}: {
  data: CollectorOverview;
  labels: DetailLabels;
  reload: () => void;
}) {
  const t = useT();
  const { collector } = data;
  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }} data-testid="collector-detail">
      <DetailHead title={`${t("detail.tab.collector")} ${collector.collectorName}`} onRefresh={reload} />
      <Card size="small" title={t("detail.tab.collector")}>
        <Descriptions column={{ xs: 1, md: 2 }} size="small" bordered>
          <Descriptions.Item label={t("detail.collector.code")}>{collector.collectorCode}</Descriptions.Item>
          <Descriptions.Item label={t("detail.collector.type")}>
            {labels.collectorType(collector.collectorType)}
          </Descriptions.Item>
          {collector.modbusEndpoint ? (
            <Descriptions.Item label={t("detail.collector.modbusEndpoint")}>
              <span data-testid="collector-modbus-endpoint">{collector.modbusEndpoint}</span>
            </Descriptions.Item>
          ) : null}
          <Descriptions.Item label={t("detail.meter.online")}>
            <span data-testid="collector-online">{labels.online(collector.onlineStatus)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t("detail.collector.lastOnline")}>
            {collector.lastOnlineTime ?? ""}
          </Descriptions.Item>
          <Descriptions.Item label={t("detail.collector.fileTime")}>{data.fileTime ?? ""}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card size="small" title={t("detail.collector.file")}>
        {data.fileTime === null ? (
          <Empty description={t("detail.collector.noFile")} />
        ) : (
          <FileTable rows={data.file} labels={labels} testId="collector-file" />
        )}
      </Card>
      {data.notFiled.length > 0 ? (
        <Card size="small" title={t("detail.collector.notFiled")}>
          <FileTable rows={data.notFiled} labels={labels} testId="collector-not-filed" />
        </Card>
      ) : null}
    </Space>
  );
}

function CollectorDetail({ path, id }: { path: string; id: string }) {
  const state = useOverview("collector", id);
  const labels = useDetailLabels();
  // Its meters' answers as the server learns them, without 刷新.
  const meters = [...(state.data?.file ?? []), ...(state.data?.notFiled ?? [])].flatMap((row) =>
    row.meterId ? [row.meterId] : [],
  );
  useLiveChanges(meters, state.reload);
  useTabSubject(path, state.data?.collector.collectorName);
  return (
    <DetailState state={state}>
      {(data) => <CollectorView data={data} labels={labels} reload={state.reload} />}
    </DetailState>
  );
}

/**
 * A collector's page (/pms/collector/detail/:id): its state, and for a concentrator its meter file
 * as the gateway last wrote it, with which meters answer their polls.
 */
export default function CollectorDetailPage() {
  const address = useDetailAddress();
  if (!address) return null;
  return <CollectorDetail key={address.path} path={address.path} id={address.id} />;
}
