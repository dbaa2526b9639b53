import { serverMessageOf } from "@meterline/api-client";
import { Button } from "antd";
import { useState } from "react";
import { api, reportNetworkError } from "../../../app/api.ts";
import { useFeedback } from "../../../app/feedback.ts";
import { useT } from "../../../i18n/index.tsx";
import { useConsole } from "../../../store/useConsole.ts";
import { type JobOutcome, JobProgressDialog } from "../../operation/batch-job/JobProgressDialog.tsx";
import type { Energy } from "./switch-calls.ts";

type Part = "price" | "alarm" | "valve";

interface Call {
  path: string;
  permission: string;
  /** Prefix of the button's strings and test ids. */
  key: "meterWrite" | "waterWrite";
}

/** Per meter kind, the batch calls behind the buttons: water meters also read their valves. */
const CALLS: Record<Energy, Partial<Record<Part, Call>>> = {
  electric: {
    price: {
      path: "/api/blade-pms/message/writePriceBatch",
      permission: "meter_write_price",
      key: "meterWrite",
    },
    alarm: {
      path: "/api/blade-pms/message/writeAlarmBatch",
      permission: "meter_write_alarm",
      key: "meterWrite",
    },
  },
  water: {
    price: {
      path: "/api/blade-pms/waterparam/modWaterPriceBatch",
      permission: "water_write_price",
      key: "waterWrite",
    },
    alarm: {
      path: "/api/blade-pms/waterparam/modWaterAlarmBatch",
      permission: "water_write_alarm",
      key: "waterWrite",
    },
    valve: {
      path: "/api/blade-pms/message/waterSwitchStatusBatch",
      permission: "water_valve_status",
      key: "waterWrite",
    },
  },
};

interface Props {
  energy: Energy;
  /** Ticked meter ids. */
  selected: readonly string[];
  /** Addresses of the rows seen, to name the meters the server left out. */
  addressOf: (id: string) => string;
  reload: () => Promise<void>;
}

/**
 * Toolbar buttons that write the ticked meters' prices or alarm limits from their accounts' schemes
 * (electric: message/writePriceBatch, writeAlarmBatch; water: waterparam/modWaterPriceBatch,
 * modWaterAlarmBatch) and, for water meters, read their valve states now (waterSwitchStatusBatch),
 * each behind its own button code. The server names every meter it left out and why; they are
 * listed rather than lost. A batch the server runs as a job opens the shared job dialog, which
 * follows it live and lists the meters left out.
 */
export function SchemeWriteButtons({ energy, selected, addressOf, reload }: Props) {
  const t = useT();
  const permission = useConsole((state) => state.permission);
  const { message, modal } = useFeedback();

  const [job, setJob] = useState<{ id: string; said: string; skipped: JobOutcome["skipped"] }>();

  const calls = CALLS[energy];
  const send = async (call: Call) => {
    try {
      const answer = await api.request(call.path, { method: "POST", body: { meterIds: selected } });
      const outcome = (answer as { data: JobOutcome }).data;
      // A job with meters in it is followed live; when every meter was left out there is nothing
      // to follow, only the list of why.
      const followed = outcome.jobId && outcome.queued > 0 ? outcome.jobId : null;
      if (followed) setJob({ id: followed, said: serverMessageOf(answer), skipped: outcome.skipped });
      else void message.success(serverMessageOf(answer));
      if (outcome.skipped.length > 0 && !followed)
        modal.info({
          title: t("meterWrite.skippedTitle", { count: outcome.skipped.length }),
          content: (
            <ul data-testid="meter-write-skipped">
              {outcome.skipped.map((s) => (
                <li key={s.meterId}>
                  {t("meterWrite.skippedRow", {
                    meter: s.productCode || addressOf(s.meterId),
                    reason: s.reason,
                  })}
                </li>
              ))}
            </ul>
          ),
        });
      await reload();
    } catch (failure) {
      reportNetworkError(failure);
    }
  };
  const testId = (call: Call, part: Part) => `${call.key === "meterWrite" ? "meter" : "water"}-write-${part}`;
  const label = (call: Call, part: Part) =>
    call.key === "meterWrite" ? t(`meterWrite.${part as "price" | "alarm"}`) : t(`waterWrite.${part}`);
  const confirm = (call: Call, part: Part) =>
    modal.confirm({
      title: label(call, part),
      content:
        call.key === "meterWrite"
          ? t(`meterWrite.confirm.${part as "price" | "alarm"}`, { count: selected.length })
          : t(`waterWrite.confirm.${part}`, { count: selected.length }),
      okButtonProps: { "data-testid": `${testId(call, part)}-ok` },
      onOk: () => send(call),
    });

  return (
    <>
      {(["price", "alarm", "valve"] as const).map((part) => {
        const call = calls[part];
        return call && permission[call.permission] === true ? (
          <Button
            key={part}
            disabled={selected.length === 0}
            onClick={() => confirm(call, part)}
            data-testid={testId(call, part)}
          >
            {label(call, part)}
          </Button>
        ) : null;
      })}
      {job ? (
        <JobProgressDialog
          jobId={job.id}
          said={job.said}
          skipped={job.skipped}
          onClose={() => {
            setJob(undefined);
            void reload();
          }}
        />
      ) : null}
    </>
  );
}
