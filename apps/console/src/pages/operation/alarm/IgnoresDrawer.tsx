import type { Row } from "@meterline/api-client";
import { Button, Drawer, Space, Switch, Tag, Typography } from "antd";
import { useMemo, useState } from "react";
import { reportNetworkError } from "../../../app/api.ts";
import { useFeedback } from "../../../app/feedback.ts";
import { PagedRows } from "../../../components/PagedRows.tsx";
import { type MessageKey, useI18n } from "../../../i18n/index.tsx";
import { useConsole } from "../../../store/useConsole.ts";
import { useMoneyPage } from "../../money/useMoneyPage.ts";
import { checkIgnorePage, liftIgnores } from "./alarm-calls.ts";

const text = (value: unknown) => (value === null || value === undefined ? "" : String(value));

/**
 * 忽略记录: who silenced which meter's rule, how long and why, newest first; by default only the
 * ignores still at work. Lifting one (checkRecord_ignore) lets its rule speak again: the next check
 * raises the meter's alarm anew. `onLifted` lets the records screen show what the bell shows again.
 */
export function IgnoresDrawer({ onClose, onLifted }: { onClose: () => void; onLifted: () => void }) {
  const { t } = useI18n();
  const { message, modal } = useFeedback();
  const mayLift = useConsole((state) => state.permission.checkRecord_ignore === true);
  const [onlyInEffect, setOnlyInEffect] = useState(true);
  // One object per choice: the page loads again when the choice changes, not on every render.
  const filters = useMemo(() => (onlyInEffect ? { inEffect: "true" } : {}), [onlyInEffect]);
  const page = useMoneyPage(checkIgnorePage, filters);

  const lift = (row: Row) =>
    modal.confirm({
      title: t("alarm.liftConfirm", { meter: text(row.productCode), rule: text(row.checkRuleName) }),
      okText: t("alarm.lift"),
      okButtonProps: { "data-testid": "alarm-lift-ok" },
      onOk: async () => {
        try {
          await liftIgnores([String(row.id)]);
        } catch (failure) {
          // Server refusals were toasted by the API bridge; the ignore stays.
          reportNetworkError(failure);
          return;
        }
        message.success(t("alarm.lifted"));
        void page.load();
        onLifted();
      },
    });

  const columns = [
    { key: "productCode", title: t("alarm.productCode"), render: (row: Row) => text(row.productCode) },
    { key: "checkRuleName", title: t("alarm.ruleName"), render: (row: Row) => text(row.checkRuleName) },
    {
      key: "ignoreType",
      title: t("alarm.ignoreKind"),
      render: (row: Row) => t(`alarm.ignore.${text(row.ignoreType)}` as MessageKey),
    },
    { key: "ignoreDate", title: t("alarm.ignoreUntil"), render: (row: Row) => text(row.ignoreDate) || "—" },
    { key: "reason", title: t("alarm.reason"), render: (row: Row) => text(row.reason) || "—" },
    { key: "creator", title: t("alarm.ignoredBy"), render: (row: Row) => text(row.creator) },
    { key: "createTime", title: t("alarm.ignoredAt"), render: (row: Row) => text(row.createTime) },
    {
      key: "inEffect",
      title: t("alarm.state"),
      render: (row: Row) =>
        row.inEffect ? <Tag color="blue">{t("alarm.inEffect")}</Tag> : <Tag>{t("alarm.expired")}</Tag>,
    },
    {
      key: "actions",
      title: t("crud.actions"),
      render: (row: Row) =>
        mayLift && row.inEffect ? (
          <Button type="link" size="small" onClick={() => lift(row)} data-testid="alarm-lift">
            {t("alarm.lift")}
          </Button>
        ) : null,
    },
  ].map((column) => ({
    ...column,
    className: "ml-nowrap",
    render: (_: unknown, row: Row) => column.render(row),
  }));

  return (
    <Drawer open size={960} title={t("alarm.ignores")} onClose={onClose} data-testid="alarm-ignores">
      <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
        <Space>
          <Switch
            id="alarm-ignores-in-effect"
            checked={onlyInEffect}
            onChange={setOnlyInEffect}
            data-testid="alarm-ignores-in-effect"
          />
          <Typography.Text>
            <label htmlFor="alarm-ignores-in-effect">{t("alarm.onlyInEffect")}</label>
          </Typography.Text>
        </Space>
        <PagedRows
          page={page}
          columns={columns}
          empty={t("alarm.noIgnores")}
          errorTestId="alarm-ignores-error"
          table={{ size: "small", scroll: { x: "max-content" } }}
        />
      </Space>
    </Drawer>
  );
}
