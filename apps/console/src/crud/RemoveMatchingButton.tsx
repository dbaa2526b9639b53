import type { QueryParams } from "@meterline/api-client";
import { type ResourceDef, resourceBase } from "@meterline/contracts";
import { Button } from "antd";
import { api, reportNetworkError } from "../app/api.ts";
import { useFeedback } from "../app/feedback.ts";
import { useT } from "../i18n/index.tsx";
import { loadMatching } from "./matching.ts";

interface Props {
  def: ResourceDef;
  /** What the table lists: the rows to remove are those the server finds for it now. */
  search: QueryParams;
  total: number;
  /** The resource's remove verb (`remove`, `delete`). */
  verb: string;
  onRemoved: () => Promise<void>;
}

/**
 * Removes every row a search matches, not only the ticked rows of one page: the server names the
 * rows (with the list's own tenant and scope), the operator confirms their count, and one call
 * removes them all or none (the ids go in the body: thousands would not fit a URL).
 */
export function RemoveMatchingButton({ def, search, total, verb, onRemoved }: Props) {
  const t = useT();
  const { message, modal } = useFeedback();
  const start = async () => {
    try {
      const matching = await loadMatching(def, search);
      if (matching.total === 0) return void message.warning(t("batch.none"));
      if (matching.total > matching.ids.length)
        return void message.warning(t("batch.tooMany", { max: matching.limit }));
      modal.confirm({
        title: t("batch.removeMatchingTitle", { count: matching.total }),
        content: t("batch.removeMatchingConfirm", { count: matching.total }),
        okButtonProps: { danger: true, "data-testid": "remove-matching-ok" },
        onOk: async () => {
          try {
            await api.post(`${resourceBase(def)}/${verb}`, { ids: matching.ids.join(",") });
          } catch (failure) {
            reportNetworkError(failure);
            return;
          }
          message.success(t("crud.removed"));
          await onRemoved();
        },
      });
    } catch (failure) {
      reportNetworkError(failure);
    }
  };
  return (
    <Button danger disabled={total === 0} onClick={() => void start()} data-testid="remove-matching">
      {t("batch.removeMatching", { count: total })}
    </Button>
  );
}
