import { resources, website } from "@meterline/contracts";
import { Drawer, Empty, Table, Tag, Typography } from "antd";
import { useCallback, useEffect, useMemo, useState } from "react";
import { describeError, reportNetworkError } from "../../../app/api.ts";
import { LoadFailed } from "../../../components/LoadFailed.tsx";
import { useDictionary } from "../../../crud/dictionary.ts";
import { fieldLabel } from "../../../crud/labels.ts";
import { type MessageKey, useI18n } from "../../../i18n/index.tsx";
import { OWNER_ACTIONS, type OwnerAction, type OwnerLogEntry, ownerLog } from "./owner-calls.ts";
import { describeLogContent, type LogWords } from "./owner-log-text.ts";

const { owner } = resources;

const actionColours: Record<OwnerAction, string> = {
  create: "green",
  update: "blue",
  remove: "red",
  bindRoom: "cyan",
  unbindRoom: "orange",
  joinGroup: "geekblue",
  leaveGroup: "gold",
  import: "purple",
};
const isAction = (action: string): action is OwnerAction =>
  (OWNER_ACTIONS as readonly string[]).includes(action);

/** Keys logged beside the owner's own fields. */
const extraLabels: Record<string, MessageKey> = {
  roomName: "pms.ownerLog.room",
  room: "pms.ownerLog.room",
  rooms: "pms.ownerLog.room",
  groupName: "pms.ownerLog.group",
  created: "pms.ownerLog.newOwner",
};

interface Props {
  ownerId: string;
  ownerName: string;
  onClose: () => void;
}

/** An owner's change log, newest first: what changed, from what to what, by whom and when. */
export function OwnerLogDrawer({ ownerId, ownerName, onClose }: Props) {
  const { t, language } = useI18n();
  const ownerTypes = useDictionary(owner.fields.ownerType, language);
  const [paging, setPaging] = useState({ current: 1, size: website.pageSizes[0] as number });
  const [state, setState] = useState<{
    rows: OwnerLogEntry[];
    total: number;
    loading: boolean;
    error: string | null;
  }>({ rows: [], total: 0, loading: true, error: null });

  const load = useCallback(async () => {
    setState((s) => ({ ...s, loading: true }));
    try {
      const page = await ownerLog(ownerId, paging.current, paging.size);
      setState({ rows: page.records, total: page.total, loading: false, error: null });
    } catch (error) {
      reportNetworkError(error);
      setState({ rows: [], total: 0, loading: false, error: describeError(error) });
    }
  }, [ownerId, paging]);
  useEffect(() => {
    void load();
  }, [load]);

  const words = useMemo<LogWords>(
    () => ({
      label: (key) => {
        const extra = extraLabels[key];
        return extra ? t(extra) : fieldLabel(owner, key, language);
      },
      value: (key, value) =>
        key === "ownerType"
          ? (ownerTypes.find((o) => o.value === String(value))?.label ?? String(value))
          : String(value),
      yes: t("pms.ownerLog.yes"),
      no: t("pms.ownerLog.no"),
      empty: t("pms.ownerLog.empty"),
    }),
    [t, language, ownerTypes],
  );

  return (
    <Drawer
      open
      size={760}
      title={t("pms.ownerLog.title", { name: ownerName })}
      onClose={onClose}
      data-testid="owner-log"
    >
      {state.error ? (
        <LoadFailed error={state.error} onRetry={() => void load()} />
      ) : (
        <Table<OwnerLogEntry>
          rowKey="id"
          size="small"
          loading={state.loading}
          dataSource={state.rows}
          locale={{ emptyText: <Empty description={t("pms.ownerLog.none")} /> }}
          pagination={{
            current: paging.current,
            pageSize: paging.size,
            total: state.total,
            showTotal: (count) => t("crud.total", { total: count }),
            onChange: (current, size) => setPaging({ current: size === paging.size ? current : 1, size }),
          }}
          columns={[
            { key: "time", dataIndex: "createTime", title: t("pms.ownerLog.time"), width: 170 },
            {
              key: "action",
              dataIndex: "action",
              title: t("pms.ownerLog.action"),
              width: 110,
              render: (action: string) =>
                isAction(action) ? (
                  <Tag color={actionColours[action]}>{t(`pms.ownerLog.action.${action}`)}</Tag>
                ) : (
                  <Tag>{action}</Tag>
                ),
            },
            {
              key: "content",
              dataIndex: "content",
              title: t("pms.ownerLog.content"),
              render: (content: string) =>
                describeLogContent(content, words).map((line) => (
                  <Typography.Paragraph key={line} style={{ marginBottom: 0 }}>
                    {line}
                  </Typography.Paragraph>
                )),
            },
            { key: "user", dataIndex: "createUserName", title: t("pms.ownerLog.user"), width: 110 },
          ]}
          data-testid="owner-log-table"
        />
      )}
    </Drawer>
  );
}
