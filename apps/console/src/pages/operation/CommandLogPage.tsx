import type { Row } from "@meterline/api-client";
import { type ResourceDef, resources } from "@meterline/contracts";
import type { TableColumnsType } from "antd";
import { useMemo } from "react";
import { ResourcePage } from "../../crud/ResourcePage.tsx";
import { EMPTY_VALUE } from "../../crud/view-values.ts";
import { useI18n } from "../../i18n/index.tsx";
import { commandWords } from "./command-words.ts";
import { frameText } from "./frame-text.ts";
import { platformStateKey } from "./platform-state.ts";

type Column = TableColumnsType<Row>[number];

/** The request frame and the reply in the detail dialog, byte by byte, in a fixed-width font. */
function FrameViewer({ value }: { value?: unknown }) {
  const text = frameText(value);
  return text ? <code style={{ wordBreak: "break-all" }}>{text}</code> : EMPTY_VALUE;
}

const frames = { viewers: { request: FrameViewer, reply: FrameViewer } };
const COMMAND_CHANGES = ["command"] as const;

/**
 * 命令记录 in words: the action (拉闸 / 合闸 / 开阀 …, from the command and its direction), its state,
 * the reason of that state, the operator ("系统" for the server's own, e.g. arrears cuts) and the
 * screen it came from, as the server names them in both languages. The frames and the raw
 * evidence stay in the row's detail dialog. The operation records (下发记录, 拉合闸记录, 写价格记录,
 * 写告警值记录) are the same table limited by the server to one kind, so they share this page.
 */
export function CommandRecordsPage({ def }: { def: ResourceDef }) {
  const { t, language } = useI18n();
  const columns = useMemo(() => {
    const named =
      (field: string) =>
      (_: unknown, row: Row): string =>
        String((language === "en" ? row[`${field}NameEn`] : undefined) || row[`${field}Name`] || "");
    const column = (
      key: string,
      title: string,
      width: number | undefined,
      render: Column["render"],
    ): Column => ({
      key,
      title,
      width,
      ellipsis: true,
      render,
    });
    // What it does and why it was sent: "拉闸 · 欠费自动断电", "合闸 · 充值恢复", "拉闸 · 手动".
    const action = column("action", t("commandLog.action"), 170, (_: unknown, row: Row) =>
      commandWords(named("action")(_, row), named("why")(_, row)),
    );
    const reason = column("reason", t("commandLog.reason"), undefined, named("reason"));
    const operator = column("operator", t("commandLog.operator"), 110, (_: unknown, row: Row) =>
      String(row.operatorName || t("commandLog.system")),
    );
    const source = column("source", t("commandLog.source"), 150, named("source"));
    const room = column("room", t("commandLog.room"), 150, (_: unknown, row: Row) =>
      String(row.roomName ?? ""),
    );
    // NB-IoT meters: where the command stands at the operator's platform, and while it waits, when
    // the sleeping meter should next wake to take it.
    const platform = column("platformState", t("commandLog.platformState"), 130, (_: unknown, row: Row) => {
      const key = platformStateKey(row.platformState);
      return key ? t(key) : "";
    });
    const wake = column("expectedWake", t("commandLog.expectedWake"), 170, (_: unknown, row: Row) =>
      String(row.expectedWake ?? ""),
    );
    return (generated: TableColumnsType<Row>) =>
      generated.flatMap((c): Column[] => {
        if (c.key === "commandType") return [action];
        // The state already says how a command ended; MSG_RESULT stays a search field.
        if (c.key === "result") return [];
        if (c.key === "state") return [c, platform, wake, reason, operator, source];
        if (c.key === "productCode") return [c, room];
        return [c];
      });
  }, [t, language]);
  // A command's progress shows as the gateway reports it, without 刷新.
  return <ResourcePage def={def} columns={columns} form={frames} followChanges={COMMAND_CHANGES} />;
}

export default function CommandLogPage() {
  return <CommandRecordsPage def={resources.meterCommand} />;
}
