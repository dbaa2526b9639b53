import type { MeterOverview } from "@meterline/contracts";
import { Card, Col, Descriptions, Empty, Row, Space, Typography } from "antd";
import { Link } from "react-router";
import { useLiveChanges } from "../../app/live.ts";
import { useT } from "../../i18n/index.tsx";
import {
  AccountCell,
  AlarmsCard,
  CommandsCard,
  DetailHead,
  DetailState,
  ReadingsCard,
  RoomLink,
  UsageCard,
} from "./DetailParts.tsx";
import { useDetailAddress, useOverview, useTabSubject } from "./detail-calls.ts";
import { type DetailLabels, useDetailLabels } from "./detail-labels.ts";
import { type DetailKind, detailPath } from "./detail-paths.ts";
import { MeterActions } from "./MeterActions.tsx";
import { PlatformDeviceCard, useMayLinkDevice } from "./PlatformDeviceCard.tsx";

const units = { 1: "kWh", 2: "m³" } as const;

/** The meter's configuration, read-only (the family's view-dialog pattern: a description list). */
function ConfigCard({ meter, labels }: { meter: MeterOverview["meter"]; labels: DetailLabels }) {
  const t = useT();
  const electric = meter.energyType === 1;
  return (
    <Card size="small" title={t("detail.config")}>
      <Descriptions column={{ xs: 1, md: 2 }} size="small" bordered data-testid="detail-config">
        <Descriptions.Item label={t("detail.meter.productCode")}>{meter.productCode}</Descriptions.Item>
        <Descriptions.Item label={t("detail.meter.name")}>{meter.meterName}</Descriptions.Item>
        <Descriptions.Item label={t("detail.meter.protocol")}>
          {labels.protocol(meter.protocol)}
        </Descriptions.Item>
        {electric ? (
          <Descriptions.Item label={t("detail.meter.type")}>
            {labels.meterType(meter.meterType)}
          </Descriptions.Item>
        ) : null}
        {electric ? (
          <Descriptions.Item label={t("detail.meter.control")}>
            {labels.control(meter.controlStatus)}
          </Descriptions.Item>
        ) : null}
        {electric ? (
          <Descriptions.Item label={t("detail.meter.ctRatio")}>{meter.ctRatio ?? ""}</Descriptions.Item>
        ) : null}
        {meter.modbusModel ? (
          <Descriptions.Item label={t("detail.meter.modbusModel")}>
            <span data-testid="detail-modbus-model">{labels.modbusModel(meter.modbusModel)}</span>
          </Descriptions.Item>
        ) : null}
        {meter.modbusModel ? (
          <Descriptions.Item label={t("detail.meter.modbusSlave")}>
            {meter.modbusSlave ?? ""}
          </Descriptions.Item>
        ) : null}
        <Descriptions.Item label={t("detail.meter.collector")}>
          {meter.collectorId ? (
            <Link to={detailPath("collector", meter.collectorId)} data-testid="detail-collector-link">
              {meter.collectorName}
            </Link>
          ) : (
            meter.collectorName
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t("detail.meter.channel")}>{meter.channel ?? ""}</Descriptions.Item>
        <Descriptions.Item label={t("detail.meter.run")}>{labels.run(meter.runStatus)}</Descriptions.Item>
        <Descriptions.Item label={t("detail.meter.chargingScheme")}>
          {meter.chargingSchemeName}
        </Descriptions.Item>
        <Descriptions.Item label={t("detail.meter.alarmScheme")}>{meter.alarmSchemeName}</Descriptions.Item>
        <Descriptions.Item label={t("detail.meter.installTime")}>{meter.installTime ?? ""}</Descriptions.Item>
        <Descriptions.Item label={t("detail.meter.remark")} span={2}>
          {meter.remark}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

/** Where the meter is, what it reads now, and its account. */
function LiveCard({ data, labels }: { data: MeterOverview; labels: DetailLabels }) {
  const t = useT();
  const { meter, owners } = data;
  const reading = meter.reading;
  return (
    <Card size="small" title={t("detail.live")}>
      <Descriptions column={1} size="small" bordered data-testid="detail-live">
        <Descriptions.Item label={t("detail.meter.room")}>
          {meter.roomId ? (
            <RoomLink id={meter.roomId} roomName={meter.roomName} areaPath={meter.areaPath} />
          ) : (
            t("detail.meter.notInstalled")
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t("detail.owners")}>
          {owners.length === 0 ? (
            <Typography.Text type="secondary">{t("detail.noOwner")}</Typography.Text>
          ) : (
            <Space wrap>
              {owners.map((o) => (
                <Link key={o.id} to={detailPath("owner", o.id)}>
                  {o.ownerName}
                </Link>
              ))}
            </Space>
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t("detail.meter.reading")}>
          {reading ? (
            <span data-testid="detail-live-reading">
              {reading.totalValue} {units[meter.energyType]}
            </span>
          ) : (
            <Typography.Text type="secondary">{t("detail.meter.noReading")}</Typography.Text>
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t("detail.meter.readTime")}>{reading?.readTime ?? ""}</Descriptions.Item>
        {meter.energyType === 1 ? (
          <Descriptions.Item label={t("detail.meter.meterBalance")}>
            {reading?.balance ?? ""}
          </Descriptions.Item>
        ) : null}
        <Descriptions.Item label={t("detail.meter.online")}>
          <span data-testid="detail-online">{labels.online(meter.onlineStatus)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t(`detail.meter.supply.${meter.energyType}`)}>
          <span data-testid="detail-supply">
            {labels.supply(reading?.switchStatus ?? meter.switchStatus)}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t("detail.account.balance")}>
          <AccountCell account={meter.account} />
        </Descriptions.Item>
        {meter.account ? (
          <Descriptions.Item label={t("detail.account.holder")}>
            <Link to={detailPath("owner", meter.account.ownerId)}>{meter.account.ownerName}</Link>
          </Descriptions.Item>
        ) : null}
      </Descriptions>
    </Card>
  );
}

function MeterView({
  data,
  labels,
  reload,
}: {
  data: MeterOverview;
  labels: DetailLabels;
  reload: () => void;
}) {
  const t = useT();
  const { meter } = data;
  const kind = meter.energyType === 2 ? "detail.tab.water" : "detail.tab.meter";
  const mayLink = useMayLinkDevice(meter.energyType);
  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }} data-testid="meter-detail">
      <DetailHead
        title={`${t(kind)} ${meter.productCode}`}
        onRefresh={reload}
        extra={<MeterActions meter={meter} onChanged={reload} />}
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={10}>
          <LiveCard data={data} labels={labels} />
        </Col>
        <Col xs={24} xl={14}>
          <UsageCard usage={data.usage} energies={[meter.energyType]} />
        </Col>
      </Row>
      <ConfigCard meter={meter} labels={labels} />
      {mayLink ? <PlatformDeviceCard meter={meter} /> : null}
      <AlarmsCard alarms={data.alarms} showMeter={false} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <ReadingsCard
            readings={data.readings}
            labels={labels}
            showMeter={false}
            energies={[meter.energyType]}
          />
        </Col>
        <Col xs={24} xl={12}>
          <CommandsCard commands={data.commands} labels={labels} showMeter={false} />
        </Col>
      </Row>
    </Space>
  );
}

function MeterDetail({ path, kind, id }: { path: string; kind: DetailKind; id: string }) {
  const state = useOverview(kind === "water" ? "water" : "meter", id);
  const labels = useDetailLabels();
  // Its supply, balance and commands as the server learns them, without 刷新.
  useLiveChanges([id], state.reload);
  useTabSubject(path, state.data?.meter.productCode);
  return (
    <DetailState state={state}>
      {(data) => <MeterView data={data} labels={labels} reload={state.reload} />}
    </DetailState>
  );
}

/** An electric (/pms/meter/detail/:id) or water (/pms/water/detail/:id) meter's page. */
export default function MeterDetailPage() {
  const address = useDetailAddress();
  if (!address) return <Empty />;
  return <MeterDetail key={address.path} path={address.path} kind={address.kind} id={address.id} />;
}
