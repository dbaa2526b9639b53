import type { QueryParams, Row } from "@meterline/api-client";
import type { TableColumnsType } from "antd";
import { Button, Card, Form, Space } from "antd";
import { type ReactNode, useEffect, useState } from "react";
import { useLocation } from "react-router";
import { reportNetworkError } from "../../../app/api.ts";
import { startDownload } from "../../../app/download.ts";
import { useFeedback } from "../../../app/feedback.ts";
import { PagedRows } from "../../../components/PagedRows.tsx";
import { headerWidth, textWidth, totalWidth } from "../../../crud/column-sizing.ts";
import { indexColumn } from "../../../crud/columns.tsx";
import { useDictionary } from "../../../crud/dictionary.ts";
import { actionsWidth, RowActions, rowActionList } from "../../../crud/RowActions.tsx";
import { type MessageKey, useI18n } from "../../../i18n/index.tsx";
import { useConsole } from "../../../store/useConsole.ts";
import { linkedCell } from "../../detail/detail-links.tsx";
import { useMoneyPage } from "../../money/useMoneyPage.ts";
import {
  checkRecordExportHref,
  checkRecordPaths,
  closeRecords,
  IGNORE_TYPES,
  removeRecords,
} from "./alarm-calls.ts";
import {
  type AlarmFilters,
  alarmQuery,
  filtersFromSearch,
  levelField,
  ruleField,
  stateField,
} from "./alarm-filters.ts";
import { CheckRecordFilters } from "./CheckRecordFilters.tsx";
import { IgnoresDrawer } from "./IgnoresDrawer.tsx";
import { RecordDetailDialog } from "./RecordDetailDialog.tsx";
import { StateCell } from "./StateCell.tsx";
import { useIgnoreAlarm } from "./useIgnoreAlarm.tsx";

const PAD = 24;

/**
 * 告警记录 (运行控制): the tenant's check records with their filters; each row may be ignored (this
 * time, 7 days, permanently), closed or deleted as the user's buttons allow, and opens its history.
 * The search (area, rule, level, state, meter, time) runs on the server and the export writes what
 * it matches; a link may open the screen on one rule's alarming records (the home page's card).
 * 忽略记录 lists the operators' ignores, and lifts those still at work (IgnoresDrawer).
 */
export default function CheckRecordPage() {
  const { t, language } = useI18n();
  const { message, modal } = useFeedback();
  const permission = useConsole((state) => state.permission);
  const { search } = useLocation();
  const [form] = Form.useForm<AlarmFilters>();
  const [query, setQuery] = useState<QueryParams>(() => alarmQuery(filtersFromSearch(search)));
  // Opened again from a link while it stays open: the link's filters replace the search.
  useEffect(() => {
    const asked = filtersFromSearch(search);
    if (Object.keys(asked).length === 0) return;
    form.resetFields();
    form.setFieldsValue(asked);
    setQuery(alarmQuery(asked));
  }, [search, form]);
  const rules = useDictionary(ruleField, language);
  const levels = useDictionary(levelField, language);
  // ALARM_STATUS 0 (normal) is no state a record is in.
  const states = useDictionary(stateField, language).filter((option) => option.value !== "0");
  const labelOf = (options: { value: string; label: string }[], key: unknown) =>
    options.find((option) => option.value === String(key))?.label ?? String(key ?? "");
  const [shown, setShown] = useState<string | null>(null);
  const [ignores, setIgnores] = useState(false);
  const page = useMoneyPage(checkRecordPaths.page, query);
  const { rows, current, size, load } = page;
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
      text("ownerName", "alarm.owner", (row) =>
        linkedCell("checkRecord", "ownerName", row, String(row.ownerName ?? "")),
      ),
      text("phone", "alarm.phone"),
      text("checkRuleName", "alarm.ruleName"),
      {
        // A meter check carries level 0, which says nothing about it.
        ...text("alarmLevel", "alarm.level", (row) =>
          Number(row.alarmLevel) === 0 ? "—" : labelOf(levels, row.alarmLevel),
        ),
        width: 120,
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

  return (
    <Card data-testid="check-records">
      <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
        <CheckRecordFilters
          form={form}
          rules={rules}
          levels={levels}
          states={states}
          onSearch={(values) => setQuery(alarmQuery(values))}
          onReset={() => setQuery({})}
          extra={
            <>
              <Button onClick={() => setIgnores(true)} data-testid="alarm-ignores-open">
                {t("alarm.ignores")}
              </Button>
              {permission.checkRecord_export && (
                <Button
                  onClick={() => startDownload(checkRecordExportHref(query))}
                  data-testid="alarm-export"
                >
                  {t("crud.export")}
                </Button>
              )}
            </>
          }
        />
        <PagedRows
          page={page}
          columns={columns}
          empty={t("crud.empty")}
          errorTestId="alarm-error"
          table={{ size: "middle", scroll: { x: totalWidth(columns) } }}
        />
      </Space>
      {dialog}
      <RecordDetailDialog id={shown} onClose={() => setShown(null)} />
      {ignores && <IgnoresDrawer onClose={() => setIgnores(false)} onLifted={reload} />}
    </Card>
  );
}
