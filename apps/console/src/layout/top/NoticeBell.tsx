import { BellOutlined } from "@ant-design/icons";
import type { Row } from "@meterline/api-client";
import { Badge, Button, Card, Empty, Popover, Space, Typography } from "antd";
import { useCallback, useEffect, useState } from "react";
import { type MessageKey, useT } from "../../i18n/index.tsx";
import { IGNORE_TYPES, loadUpPage } from "../../pages/operation/alarm/alarm-calls.ts";
import { useIgnoreAlarm } from "../../pages/operation/alarm/useIgnoreAlarm.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { findLeaf } from "../menu-model.ts";
import { IconButton } from "./IconButton.tsx";

const POLL_MS = 30_000;
const CHECK_RECORD_PATH = "/operation/checkrecord";

/** Whether the user may read check records: the screen, or any of its buttons (as the server asks). */
function useMayReadAlarms(): { read: boolean; ignore: boolean } {
  const permission = useConsole((state) => state.permission);
  const menus = useConsole((state) => state.menus);
  const menuAll = useConsole((state) => state.menuAll);
  const ignore = Boolean(permission.checkRecord_ignore);
  const read =
    ignore ||
    Boolean(permission.checkRecord_close || permission.checkRecord_delete) ||
    Boolean(findLeaf(menuAll, CHECK_RECORD_PATH) ?? findLeaf(menus ?? [], CHECK_RECORD_PATH));
  return { read, ignore };
}

/**
 * The alarm bell (spec §1): the count of alarming records nobody ignored and the newest ten as
 * cards (meter number, time, rule) with the three ignores. It reads again every 30 s and after an
 * ignore, so a new alarm shows without reloading the page.
 */
export function NoticeBell() {
  const t = useT();
  const { read, ignore: mayIgnore } = useMayReadAlarms();
  const [open, setOpen] = useState(false);
  const [records, setRecords] = useState<Row[]>([]);
  const [total, setTotal] = useState(0);
  const [failed, setFailed] = useState(false);

  const refresh = useCallback(() => {
    if (!read) return;
    loadUpPage(1, 10)
      .then((answer) => {
        setRecords(answer.records);
        setTotal(answer.total);
        setFailed(false);
      })
      .catch(() => setFailed(true));
  }, [read]);

  useEffect(() => {
    refresh();
    const timer = window.setInterval(refresh, POLL_MS);
    return () => window.clearInterval(timer);
  }, [refresh]);

  const { ignore, dialog } = useIgnoreAlarm(refresh);

  const cards = records.map((row) => (
    <Card key={String(row.id)} size="small" data-testid="notice-card" data-record={String(row.id)}>
      <Space orientation="vertical" size={2} style={{ width: "100%" }}>
        <Typography.Text strong data-testid="notice-meter">
          {String(row.productCode ?? "")}
        </Typography.Text>
        <Typography.Text type="secondary">{String(row.createTime ?? "")}</Typography.Text>
        <Typography.Text>{String(row.checkRuleName ?? "")}</Typography.Text>
        {mayIgnore ? (
          <Space size={0} wrap>
            {IGNORE_TYPES.map((type) => (
              <Button
                key={type}
                type="link"
                size="small"
                onClick={() => ignore(row, type)}
                data-testid={`notice-ignore-${type}`}
              >
                {t(`alarm.ignore.${type}` as MessageKey)}
              </Button>
            ))}
          </Space>
        ) : null}
      </Space>
    </Card>
  ));

  return (
    <>
      <Popover
        trigger="click"
        open={open}
        onOpenChange={setOpen}
        placement="bottomRight"
        title={t("notice.title")}
        content={
          <div className="ml-notice-panel" data-testid="notice-panel">
            {records.length > 0 ? (
              <Space orientation="vertical" size="small" style={{ width: "100%" }}>
                {cards}
              </Space>
            ) : (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={failed ? t("notice.loadFailed") : t("notice.empty")}
              />
            )}
          </div>
        }
      >
        <Badge count={total} overflowCount={99} size="small" data-testid="notice-badge">
          <IconButton label={t("top.notice")} icon={<BellOutlined />} testId="notice-button" quiet={open} />
        </Badge>
      </Popover>
      {dialog}
    </>
  );
}
