import type { RoomOverview } from "@meterline/contracts";
import { Button, Card, Col, Descriptions, Empty, Row, Space, Typography } from "antd";
import { useState } from "react";
import { Link } from "react-router";
import { useLiveChanges } from "../../app/live.ts";
import { useT } from "../../i18n/index.tsx";
import { OwnerLogDrawer } from "../pms/owner/OwnerLogDrawer.tsx";
import {
  AlarmsCard,
  CommandsCard,
  DetailHead,
  DetailState,
  energiesOf,
  MetersTable,
  ReadingsCard,
  UsageCard,
} from "./DetailParts.tsx";
import { roomSubject, useDetailAddress, useOverview, useTabSubject } from "./detail-calls.ts";
import { type DetailLabels, useDetailLabels } from "./detail-labels.ts";
import { detailPath } from "./detail-paths.ts";

function RoomView({
  data,
  labels,
  reload,
}: {
  data: RoomOverview;
  labels: DetailLabels;
  reload: () => void;
}) {
  const t = useT();
  const { room, owners, meters } = data;
  const [log, setLog] = useState<{ id: string; name: string } | null>(null);
  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }} data-testid="room-detail">
      <DetailHead
        title={`${t("detail.tab.room")} ${roomSubject(room.areaPath, room.roomName)}`}
        onRefresh={reload}
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Card size="small" title={t("detail.tab.room")}>
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label={t("detail.path")}>
                <span data-testid="detail-room-path">
                  {room.areaPath ? `${room.areaPath} / ${room.roomName}` : room.roomName}
                </span>
              </Descriptions.Item>
              <Descriptions.Item label={t("detail.room.code")}>{room.roomCode}</Descriptions.Item>
              <Descriptions.Item label={t("detail.room.type")}>
                {labels.roomType(room.roomType)}
              </Descriptions.Item>
              <Descriptions.Item label={t("detail.room.floorArea")}>{room.floorArea ?? ""}</Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card size="small" title={t("detail.owners")} data-testid="detail-owners">
            {owners.length === 0 ? (
              <Empty description={t("detail.noOwner")} />
            ) : (
              <Space orientation="vertical">
                {owners.map((o) => (
                  <Space key={o.id} wrap>
                    <Link to={detailPath("owner", o.id)} data-testid="detail-owner-link">
                      {o.ownerName}
                    </Link>
                    <Typography.Text type="secondary">{o.phone}</Typography.Text>
                    <Button size="small" type="link" onClick={() => setLog({ id: o.id, name: o.ownerName })}>
                      {t("detail.changes")}
                    </Button>
                  </Space>
                ))}
              </Space>
            )}
          </Card>
        </Col>
      </Row>
      <Card size="small" title={t("detail.meters")}>
        <MetersTable meters={meters} labels={labels} onChanged={reload} />
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <UsageCard usage={data.usage} energies={energiesOf(meters)} />
        </Col>
        <Col xs={24} xl={8}>
          <AlarmsCard alarms={data.alarms} showMeter />
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <ReadingsCard readings={data.readings} labels={labels} showMeter energies={energiesOf(meters)} />
        </Col>
        <Col xs={24} xl={12}>
          <CommandsCard commands={data.commands} labels={labels} showMeter />
        </Col>
      </Row>
      {log ? <OwnerLogDrawer ownerId={log.id} ownerName={log.name} onClose={() => setLog(null)} /> : null}
    </Space>
  );
}

function RoomDetail({ path, id }: { path: string; id: string }) {
  const state = useOverview("room", id);
  const labels = useDetailLabels();
  // Its meters' supply, balances and commands as the server learns them, without 刷新.
  useLiveChanges(state.data?.meters.map((m) => m.id) ?? [], state.reload);
  const room = state.data?.room;
  useTabSubject(path, room ? roomSubject(room.areaPath, room.roomName) : undefined);
  return (
    <DetailState state={state}>
      {(data) => <RoomView data={data} labels={labels} reload={state.reload} />}
    </DetailState>
  );
}

/** A room's page (/pms/room/detail/:id): where it is, who lives there, its meters and their data. */
export default function RoomDetailPage() {
  const address = useDetailAddress();
  if (!address) return null;
  return <RoomDetail key={address.path} path={address.path} id={address.id} />;
}
