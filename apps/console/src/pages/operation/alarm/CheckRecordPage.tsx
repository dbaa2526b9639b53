import type { QueryParams, Row } from "@meterline/api-client";
import { ALARM_RULE_CODES, website } from "@meterline/contracts";
import type { TableColumnsType } from "antd";
import { App, Button, Card, Empty, Form, Input, Pagination, Select, Space, Table } from "antd";
import type { Dayjs } from "dayjs";
import { type ReactNode, useState } from "react";
import { reportNetworkError } from "../../../app/api.ts";
import { LoadFailed } from "../../../components/LoadFailed.tsx";
import { headerWidth, textWidth, totalWidth } from "../../../crud/column-sizing.ts";
import { indexColumn } from "../../../crud/columns.tsx";
import { DateRangeInput } from "../../../crud/DateRangeInput.tsx";
import { actionsWidth, RowActions, rowActionList } from "../../../crud/RowActions.tsx";
import { type MessageKey, useT } from "../../../i18n/index.tsx";
import { useConsole } from "../../../store/useConsole.ts";
import { linkedCell } from "../../detail/detail-links.tsx";
import { useMoneyPage } from "../../money/useMoneyPage.ts";
import { checkRecordPaths, closeRecords, IGNORE_TYPES, removeRecords } from "./alarm-calls.ts";
import { RecordDetailDialog } from "./RecordDetailDialog.tsx";
import { StateCell } from "./StateCell.tsx";
import { useIgnoreAlarm } from "./useIgnoreAlarm.tsx";

const STATES = [1, 2, 3] as const;
const LEVELS = [0, 1, 2, 3] as const;
const PAD = 24;

interface Filters {
  alarmStatus?: number;
  ruleCode?: string;
  alarmLevel?: number;
  productCode?: string;
  period?: [Dayjs | null, Dayjs | null];
}

const stamp = (day: Dayjs | null | undefined) => (day ? day.format("YYYY-MM-DD HH:mm:ss") : undefined);

/** The search the form holds, as checkRecord/page's parameters. */
function queryOf(values: Filters): QueryParams {
  const [from, to] = values.period ?? [null, null];
  return {
    alarmStatus: values.alarmStatus,
    ruleCode: values.ruleCode,
    alarmLevel: values.alarmLevel,
    productCode: values.productCode?.trim(),
    startTime: stamp(from),
    endTime: stamp(to),
  };
}

/**
 * 告警记录 (运行控制): the tenant's check records with their filters; each row may be ignored (this
 * time, 7 days, permanently), closed or deleted as the user's buttons allow, and opens its history.
 */
export default function CheckRecordPage() {
  const t = useT();
  const { message, modal } = App.useApp();
  const permission = useConsole((state) => state.permission);
  const [form] = Form.useForm<Filters>();
  const [query, setQuery] = useState<QueryParams>({});
  const [shown, setShown] = useState<string | null>(null);
  const { rows, total, current, size, loading, error, load } = useMoneyPage(checkRecordPaths.page, query);
  const reload = () => void load();
  const { ignore, dialog } = useIgnoreAlarm(reload);

  const confirmed = (title: MessageKey, call: () => Promise<unknown>) =>
    modal.confirm({
      title: t(title),
      okButtonProps: { "data-testid": "alarm-action-ok" },
      onOk: async () => {
        try {
          await call();
        } catch (failure) {
          // Server refusals were toasted by the API bridge.
          reportNetworkError(failure);
          return;
        }
        message.success(t("alarm.done"));
        reload();
      },
    });

  const rowButtons = (row: Row) => {
    const id = String(row.id);
    const alarming = Number(row.alarmStatus) === 1;
    const buttons = [
      <Button key="detail" type="link" onClick={() => setShown(id)} data-testid="alarm-detail">
        {t("alarm.detail")}
      </Button>,
    ];
    if (permission.checkRecord_ignore && alarming && !row.ignored)
      for (const type of IGNORE_TYPES)
        buttons.push(
          <Button
            key={`ignore-${type}`}
            type="link"
            onClick={() => ignore(row, type)}
            data-testid={`alarm-ignore-${type}`}
          >
            {t(`alarm.ignore.${type}` as MessageKey)}
          </Button>,
        );
    if (permission.checkRecord_close && alarming)
      buttons.push(
        <Button
          key="close"
          type="link"
          onClick={() => confirmed("alarm.closeConfirm", () => closeRecords(id))}
          data-testid="alarm-close"
        >
          {t("alarm.close")}
        </Button>,
      );
    if (permission.checkRecord_delete)
      buttons.push(
        <Button
          key="remove"
          type="link"
          danger
          onClick={() => confirmed("alarm.removeConfirm", () => removeRecords(id))}
          data-testid="alarm-remove"
        >
          {t("alarm.remove")}
        </Button>,
      );
    return <>{buttons}</>;
  };

  const noop = () => undefined;
  const none = { view: false, edit: false, remove: false, addChild: false };
  const columns: TableColumnsType<Row> = (() => {
    // Meter numbers and times read whole: the column is as wide as its widest value on the page.
    const whole = (title: string, key: string) =>
      Math.max(headerWidth(title), ...rows.map((row) => textWidth(String(row[key] ?? "")) + PAD));
    const text = (key: string, title: MessageKey, render?: (row: Row) => ReactNode) => ({
      key,
      dataIndex: key,
      title: t(title),
      className: "ml-nowrap",
      width: whole(t(title), key),
      render: (_: unknown, row: Row) => (render ? render(row) : String(row[key] ?? "")),
    });
    const actions = rows.reduce(
      (widest, row) =>
        Math.max(
          widest,
          actionsWidth(
            rowActionList(
              {
                allowed: none,
                onView: noop,
                onEdit: noop,
                onRemove: noop,
                onAddChild: noop,
                extra: rowButtons(row),
              },
              t,
            ),
          ),
        ),
      headerWidth(t("crud.actions")),
    );
    return [
      indexColumn(current, size, t("crud.index")),
      text("productCode", "alarm.productCode", (row) =>
        linkedCell("checkRecord", "productCode", row, String(row.productCode ?? "")),
      ),
      text("roomName", "alarm.room", (row) =>
        linkedCell("checkRecord", "roomName", row, String(row.roomName ?? "")),
      ),
      text("checkRuleName", "alarm.ruleName"),
      {
        ...text("alarmLevel", "alarm.level", (row) =>
          t(`alarm.level.${Number(row.alarmLevel)}` as MessageKey),
        ),
        width: 90,
      },
      { ...text("alarmStatus", "alarm.state", (row) => <StateCell row={row} />), width: 160 },
      text("createTime", "alarm.createTime"),
      text("lastCheckTime", "alarm.lastCheckTime"),
      text("restoreTime", "alarm.endTime", (row) => String(row.restoreTime ?? row.closeTime ?? "")),
      {
        key: "actions",
        title: t("crud.actions"),
        fixed: "right" as const,
        width: actions + PAD,
        render: (_: unknown, row: Row) => (
          <RowActions
            row={row}
            allowed={none}
            onView={noop}
            onEdit={noop}
            onRemove={noop}
            onAddChild={noop}
            extra={rowButtons(row)}
          />
        ),
      },
    ];
  })();

  const all = { value: "", label: t("alarm.all") };
  return (
    <Card data-testid="check-records">
      <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
        <Form<Filters>
          form={form}
          layout="inline"
          onFinish={(values) => setQuery(queryOf(values))}
          onReset={() => setQuery({})}
        >
          <Form.Item name="alarmStatus" label={t("alarm.state")}>
            <Select
              style={{ width: 120 }}
              allowClear
              placeholder={t("alarm.all")}
              data-testid="alarm-filter-state"
              options={STATES.map((s) => ({ value: s, label: t(`alarm.state.${s}` as MessageKey) }))}
            />
          </Form.Item>
          <Form.Item name="ruleCode" label={t("alarm.ruleName")}>
            <Select
              style={{ width: 160 }}
              allowClear
              placeholder={all.label}
              options={ALARM_RULE_CODES.map((r) => ({ value: r, label: t(`alarm.rule.${r}` as MessageKey) }))}
            />
          </Form.Item>
          <Form.Item name="alarmLevel" label={t("alarm.level")}>
            <Select
              style={{ width: 110 }}
              allowClear
              placeholder={all.label}
              options={LEVELS.map((l) => ({ value: l, label: t(`alarm.level.${l}` as MessageKey) }))}
            />
          </Form.Item>
          <Form.Item name="productCode" label={t("alarm.productCode")}>
            <Input allowClear style={{ width: 160 }} data-testid="alarm-filter-meter" />
          </Form.Item>
          <Form.Item name="period" label={t("alarm.timeRange")}>
            <DateRangeInput startLabel={t("crud.startTime")} endLabel={t("crud.endTime")} />
          </Form.Item>
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" data-testid="alarm-search">
                {t("alarm.search")}
              </Button>
              <Button htmlType="reset">{t("alarm.reset")}</Button>
            </Space>
          </Form.Item>
        </Form>
        {error ? (
          <LoadFailed error={error} onRetry={reload} testId="alarm-error" />
        ) : (
          <>
            <Table<Row>
              rowKey="id"
              size="middle"
              loading={loading}
              dataSource={rows}
              columns={columns}
              scroll={{ x: totalWidth(columns) }}
              locale={{ emptyText: <Empty description={t("crud.empty")} /> }}
              pagination={false}
            />
            <Pagination
              align="end"
              current={current}
              pageSize={size}
              total={total}
              pageSizeOptions={website.pageSizes.map(String)}
              showSizeChanger
              showTotal={(count) => t("crud.total", { total: count })}
              onChange={(page, pageSize) => void load(pageSize === size ? page : 1, pageSize)}
            />
          </>
        )}
      </Space>
      {dialog}
      <RecordDetailDialog id={shown} onClose={() => setShown(null)} />
    </Card>
  );
}
