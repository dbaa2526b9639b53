import { BellOutlined, SoundOutlined } from "@ant-design/icons";
import type { Row } from "@meterline/api-client";
import type { FieldDef } from "@meterline/contracts";
import { Badge, Button, Card, Empty, Popover, Space, Switch, Typography } from "antd";
import { useCallback, useEffect, useRef, useState } from "react";
import { useDictionary } from "../../crud/dictionary.ts";
import { type MessageKey, useI18n } from "../../i18n/index.tsx";
import { IGNORE_TYPES, loadUpPage } from "../../pages/operation/alarm/alarm-calls.ts";
import { ruleField } from "../../pages/operation/alarm/alarm-filters.ts";
import { useIgnoreAlarm } from "../../pages/operation/alarm/useIgnoreAlarm.tsx";
import { useMayReadAlarms } from "../../pages/operation/alarm/useMayReadAlarms.ts";
import { ApprovalNoticeCards } from "./ApprovalNoticeCards.tsx";
import { IconButton } from "./IconButton.tsx";
import { useAlarmVoice } from "./useAlarmVoice.ts";
import { useApprovalNotices } from "./useApprovalNotices.ts";

const POLL_MS = 30_000;
const NO_DICTIONARY: FieldDef = { type: "string" };
/**
 * The alarm bell (spec §1): the count of alarming records nobody ignored and the newest ten as
 * cards (meter number; room, owner and phone; time; rule) with the three ignores. It reads again every 30 s and after an
 * ignore, so a new alarm shows without reloading the page; with the voice on, a new one is spoken.
 */
export function NoticeBell() {
  const { t, language } = useI18n();
  const { read, ignore: mayIgnore } = useMayReadAlarms();
  const [open, setOpen] = useState(false);
  // Read only when an open bell shows English names: the console's first load asks for nothing more.
  const rules = useDictionary(open && language === "en" ? ruleField : NO_DICTIONARY, language);
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
  // Money approvals waiting for this user share the bell with the alarms, first.
  const approvals = useApprovalNotices(POLL_MS);

  // Who to call: the room (with its building), the owner and the phone, as far as the record knows.
  const place = (row: Row) =>
    [row.roomName, row.ownerName, row.phone]
      .map((value) => String(value ?? ""))
      .filter(Boolean)
      .join(" · ");
  // The tenant names its rules in Chinese; in English the dictionary's English name of each rule reads.
  const ruleNames = (row: Row) => {
    const codes = Array.isArray(row.ruleCodes) ? row.ruleCodes.map(String) : [String(row.ruleCode ?? "")];
    if (language !== "en") return String(row.checkRuleName ?? "");
    return codes.map((code) => rules.find((option) => option.value === code)?.label ?? code).join(", ");
  };

  const cards = records.map((row) => (
    <Card key={String(row.id)} size="small" data-testid="notice-card" data-record={String(row.id)}>
      <Space orientation="vertical" size={2} style={{ width: "100%" }}>
        <Typography.Text strong data-testid="notice-meter">
          {String(row.productCode ?? "")}
        </Typography.Text>
        {place(row) ? <Typography.Text data-testid="notice-place">{place(row)}</Typography.Text> : null}
        <Typography.Text type="secondary">{String(row.createTime ?? "")}</Typography.Text>
        <Typography.Text data-testid="notice-rule">{ruleNames(row)}</Typography.Text>
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
            {records.length > 0 || approvals.rows.length > 0 ? (
              <Space orientation="vertical" size="small" style={{ width: "100%" }}>
                <ApprovalNoticeCards rows={approvals.rows} onOpen={() => setOpen(false)} />
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
        <Badge
          count={total + approvals.rows.length}
          overflowCount={99}
          size="small"
          data-testid="notice-badge"
        >
          <IconButton label={t("top.notice")} icon={<BellOutlined />} testId="notice-button" quiet={open} />
        </Badge>
      </Popover>
      {dialog}
    </>
  );
}
