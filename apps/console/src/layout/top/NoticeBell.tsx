import { BellOutlined, SoundOutlined } from "@ant-design/icons";
import type { Row } from "@meterline/api-client";
import { Badge, Button, Card, Empty, Popover, Space, Switch, Typography } from "antd";
import { useCallback, useEffect, useRef, useState } from "react";
import { type MessageKey, useT } from "../../i18n/index.tsx";
import { IGNORE_TYPES, loadUpPage } from "../../pages/operation/alarm/alarm-calls.ts";
import { useIgnoreAlarm } from "../../pages/operation/alarm/useIgnoreAlarm.tsx";
import { useMayReadAlarms } from "../../pages/operation/alarm/useMayReadAlarms.ts";
import { IconButton } from "./IconButton.tsx";
import { useAlarmVoice } from "./useAlarmVoice.ts";

const POLL_MS = 30_000;
/**
 * The alarm bell (spec §1): the count of alarming records nobody ignored and the newest ten as
 * cards (meter number, time, rule) with the three ignores. It reads again every 30 s and after an
 * ignore, so a new alarm shows without reloading the page; with the voice on, a new one is spoken.
 */
export function NoticeBell() {
  const t = useT();
  const { read, ignore: mayIgnore } = useMayReadAlarms();
  const [open, setOpen] = useState(false);
  const [records, setRecords] = useState<Row[]>([]);
  const [total, setTotal] = useState(0);
  const [failed, setFailed] = useState(false);
  const voice = useAlarmVoice();
  // The poll keeps its timer when the voice is switched: it reads the latest listener through a ref.
  const heard = useRef(voice.heard);
  heard.current = voice.heard;

  const refresh = useCallback(() => {
    if (!read) return;
    loadUpPage(1, 10)
      .then((answer) => {
        setRecords(answer.records);
        setTotal(answer.total);
        setFailed(false);
        heard.current(answer.records);
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
        title={
          <div className="ml-notice-title">
            <span>{t("notice.title")}</span>
            {voice.available ? (
              <Space size={4}>
                <SoundOutlined aria-hidden />
                <Switch
                  size="small"
                  checked={voice.on}
                  onChange={voice.setOn}
                  aria-label={t("notice.voice")}
                  title={t(voice.on ? "notice.voiceOn" : "notice.voiceOff")}
                  data-testid="notice-voice"
                />
              </Space>
            ) : null}
          </div>
        }
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
