import { serverMessageOf } from "@meterline/api-client";
import type { SwitchOutcome } from "@meterline/contracts";
import { Button } from "antd";
import { api, reportNetworkError } from "../../../app/api.ts";
import { useFeedback } from "../../../app/feedback.ts";
import { useT } from "../../../i18n/index.tsx";
import { useConsole } from "../../../store/useConsole.ts";

type Part = "price" | "alarm";

const CALLS: Record<Part, { path: string; permission: string }> = {
  price: { path: "/api/blade-pms/message/writePriceBatch", permission: "meter_write_price" },
  alarm: { path: "/api/blade-pms/message/writeAlarmBatch", permission: "meter_write_alarm" },
};

interface Props {
  /** Ticked meter ids. */
  selected: readonly string[];
  /** Addresses of the rows seen, to name the meters the server left out. */
  addressOf: (id: string) => string;
  reload: () => Promise<void>;
}

/**
 * Toolbar buttons that write the ticked local-prepaid meters' prices or alarm limits from their
 * accounts' schemes (message/writePriceBatch, writeAlarmBatch), each behind its own button code.
 * The server names every meter it left out and why; they are listed rather than lost.
 */
export function SchemeWriteButtons({ selected, addressOf, reload }: Props) {
  const t = useT();
  const permission = useConsole((state) => state.permission);
  const { message, modal } = useFeedback();

  const send = async (part: Part) => {
    try {
      const answer = await api.request(CALLS[part].path, { method: "POST", body: { meterIds: selected } });
      const outcome = (answer as { data: SwitchOutcome }).data;
      void message.success(serverMessageOf(answer));
      if (outcome.skipped.length > 0)
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
  const confirm = (part: Part) =>
    modal.confirm({
      title: t(`meterWrite.${part}`),
      content: t(`meterWrite.confirm.${part}`, { count: selected.length }),
      okButtonProps: { "data-testid": `meter-write-${part}-ok` },
      onOk: () => send(part),
    });

  return (
    <>
      {(["price", "alarm"] as const).map((part) =>
        permission[CALLS[part].permission] === true ? (
          <Button
            key={part}
            disabled={selected.length === 0}
            onClick={() => confirm(part)}
            data-testid={`meter-write-${part}`}
          >
            {t(`meterWrite.${part}`)}
          </Button>
        ) : null,
      )}
    </>
  );
}
