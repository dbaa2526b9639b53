import type { Row } from "@meterline/api-client";
import { useCallback, useEffect, useState } from "react";
import { onTodoChange } from "../../pages/work/todo-signal.ts";
import { loadWorkList } from "../../pages/work/work-calls.ts";

/** The process the money module starts for refunds and closings above the threshold. */
const MONEY_APPROVAL = "MoneyApproval";

/**
 * The money approvals waiting for the user (to claim or claimed), for the bell: read with the
 * bell's poll and again whenever a screen claims or completes a task. Silent on failure: the work
 * lists say the same and the bell keeps its alarms.
 */
export function useApprovalNotices(pollMs: number) {
  const [rows, setRows] = useState<Row[]>([]);
  const refresh = useCallback(() => {
    Promise.all([loadWorkList("todo", 1, 100), loadWorkList("claim", 1, 100)])
      .then(([todo, claim]) =>
        setRows(
          [...todo.records, ...claim.records].filter((row) => row.processDefinitionKey === MONEY_APPROVAL),
        ),
      )
      .catch(() => setRows([]));
  }, []);
  useEffect(() => {
    refresh();
    const timer = window.setInterval(refresh, pollMs);
    const stop = onTodoChange(refresh);
    return () => {
      window.clearInterval(timer);
      stop();
    };
  }, [refresh, pollMs]);
  return { rows, refresh };
}
