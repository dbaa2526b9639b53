import type { Row } from "@meterline/api-client";
import { Input, Modal } from "antd";
import { type ReactNode, useState } from "react";
import { reportNetworkError } from "../../../app/api.ts";
import { useFeedback } from "../../../app/feedback.ts";
import { useT } from "../../../i18n/index.tsx";
import { type IgnoreType, ignoreRecord } from "./alarm-calls.ts";

/**
 * Ignoring an alarm, the same from the bell and the screen (spec §7 alarm ignore): every kind asks
 * 确定忽略本次告警? first; the permanent one first asks for a reason, which may not be blank.
 * `onDone` runs after the server took it (the lists reload).
 */
export function useIgnoreAlarm(onDone: () => void): {
  ignore: (row: Row, type: IgnoreType) => void;
  dialog: ReactNode;
} {
  const t = useT();
  const { message, modal } = useFeedback();
  const [asking, setAsking] = useState<Row | null>(null);
  const [reason, setReason] = useState("");

  const save = (row: Row, type: IgnoreType, why?: string) =>
    new Promise<void>((resolve) => {
      modal.confirm({
        title: t("alarm.ignoreConfirm"),
        okButtonProps: { "data-testid": "alarm-ignore-ok" },
        onCancel: () => resolve(),
        onOk: async () => {
          try {
            await ignoreRecord(String(row.id), type, why);
            message.success(t("alarm.done"));
            setAsking(null);
            onDone();
          } catch (error) {
            reportNetworkError(error);
          } finally {
            resolve();
          }
        },
      });
    });

  const ignore = (row: Row, type: IgnoreType) => {
    if (type === 3) {
      setReason("");
      setAsking(row);
      return;
    }
    void save(row, type);
  };

  const dialog = (
    <Modal
      open={asking !== null}
      title={t("alarm.ignore.3")}
      onCancel={() => setAsking(null)}
      okButtonProps={{ "data-testid": "alarm-reason-ok" }}
      onOk={() => {
        const text = reason.trim();
        if (!text) {
          message.warning(t("alarm.reasonRequired"));
          return;
        }
        if (asking) void save(asking, 3, text);
      }}
      destroyOnHidden
    >
      <Input.TextArea
        aria-label={t("alarm.reason")}
        placeholder={t("alarm.reason")}
        maxLength={255}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        data-testid="alarm-reason"
      />
    </Modal>
  );
  return { ignore, dialog };
}
