import type { DetailRecharge, OwnerOverview } from "@meterline/contracts";
import { Button, Card, Col, Descriptions, Empty, Row, Space, Table } from "antd";
import { useState } from "react";
import { Link } from "react-router";
import { useLiveChanges } from "../../app/live.ts";
import { useT } from "../../i18n/index.tsx";
import { OwnerLogDrawer } from "../pms/owner/OwnerLogDrawer.tsx";
import {
  AlarmsCard,
  DetailHead,
  DetailState,
  energiesOf,
  MetersTable,
  RoomLink,
  UsageCard,
} from "./DetailParts.tsx";
import { useDetailAddress, useOverview, useTabSubject } from "./detail-calls.ts";
import { type DetailLabels, useDetailLabels } from "./detail-labels.ts";
import { meterDetailPath } from "./detail-paths.ts";
import { counterPath, useCounterAllowed } from "./MeterActions.tsx";

function RechargesCard({ recharges, labels }: { recharges: DetailRecharge[]; labels: DetailLabels }) {
  const t = useT();
  return (
    <Card size="small" title={t("detail.recharges")}>
      <Table<DetailRecharge>
        size="small"
        rowKey="id"
        dataSource={recharges}
        pagination={false}
        scroll={{ x: "max-content" }}
        locale={{ emptyText: <Empty description={t("detail.recharges.empty")} /> }}
        data-testid="detail-recharges"
        columns={[
          { key: "time", title: t("detail.recharge.time"), dataIndex: "createTime" },
          {
            key: "meter",
            title: t("detail.meter.productCode"),
            render: (_, r) => <Link to={meterDetailPath(r.energyType, r.meterId)}>{r.productCode}</Link>,
          },
          {
            key: "type",
            title: t("detail.recharge.type"),
            render: (_, r) => labels.rechargeType(r.rechargeType),
          },
          { key: "amount", title: t("detail.recharge.amount"), dataIndex: "amount", align: "right" },
          {
            key: "method",
            title: t("detail.recharge.method"),
            render: (_, r) => labels.paymentMethod(r.paymentMethod),
          },
          { key: "receipt", title: t("detail.recharge.receipt"), dataIndex: "receiptNo" },
          { key: "operator", title: t("detail.recharge.operator"), dataIndex: "operator" },
        ]}
      />
    </Card>
  );
}

function OwnerView({
  data,
  labels,
  reload,
}: {
  data: OwnerOverview;
  labels: DetailLabels;
  reload: () => void;
}) {
  const t = useT();
  const { owner, rooms, meters } = data;
  const [log, setLog] = useState(false);
  const counter = useCounterAllowed();
  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }} data-testid="owner-detail">
      <DetailHead
        title={`${t("detail.tab.owner")} ${owner.ownerName}`}
        onRefresh={reload}
        extra={
          <>
            <Button onClick={() => setLog(true)} data-testid="detail-owner-log">
              {t("detail.changes")}
            </Button>
            {counter ? (
              <Link to={counterPath(owner.phone || owner.ownerName)} data-testid="detail-owner-recharge">
                {t("detail.action.recharge")}
              </Link>
            ) : null}
          </>
        }
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Card size="small" title={t("detail.tab.owner")}>
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label={t("detail.owner.code")}>{owner.ownerCode}</Descriptions.Item>
              <Descriptions.Item label={t("detail.owner.type")}>
                {labels.ownerType(owner.ownerType)}
              </Descriptions.Item>
              <Descriptions.Item label={t("detail.owner.phone")}>{owner.phone}</Descriptions.Item>
              <Descriptions.Item label={t("detail.owner.balance")}>
                <span data-testid="detail-owner-balance">{owner.balance}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t("detail.owner.since")}>{owner.createTime}</Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card size="small" title={t("detail.owner.rooms")} data-testid="detail-rooms">
            {rooms.length === 0 ? (
              <Empty description={t("detail.owner.noRooms")} />
            ) : (
              <Space orientation="vertical">
                {rooms.map((r) => (
                  <RoomLink key={r.id} {...r} />
                ))}
              </Space>
            )}
          </Card>
        </Col>
      </Row>
      <Card size="small" title={t("detail.accounts")}>
        <MetersTable meters={meters} labels={labels} onChanged={reload} showRoom />
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <UsageCard usage={data.usage} energies={energiesOf(meters)} />
        </Col>
        <Col xs={24} xl={8}>
          <AlarmsCard alarms={data.alarms} showMeter />
        </Col>
      </Row>
      <RechargesCard recharges={data.recharges} labels={labels} />
      {log ? (
        <OwnerLogDrawer ownerId={owner.id} ownerName={owner.ownerName} onClose={() => setLog(false)} />
      ) : null}
    </Space>
  );
}

function OwnerDetail({ path, id }: { path: string; id: string }) {
  const state = useOverview("owner", id);
  // The owner's meters' supply, balances and commands as the server learns them, without 刷新.
  useLiveChanges(state.data?.meters.map((m) => m.id) ?? [], state.reload);
  const labels = useDetailLabels();
  useTabSubject(path, state.data?.owner.ownerName);
  return (
    <DetailState state={state}>
      {(data) => <OwnerView data={data} labels={labels} reload={state.reload} />}
    </DetailState>
  );
}

/** An owner's page (/pms/owner/detail/:id): identity, rooms, accounts, recharges and usage. */
export default function OwnerDetailPage() {
  const address = useDetailAddress();
  if (!address) return null;
  return <OwnerDetail key={address.path} path={address.path} id={address.id} />;
}
