import type { BatchJobState } from "@meterline/contracts";
import { Badge } from "antd";
import { useT } from "../../../i18n/index.tsx";

type Status = "processing" | "success" | "default";
const STATUS: Record<BatchJobState, Status> = {
  running: "processing",
  done: "success",
  cancelled: "default",
};

/**
 * A job's state in words beside a coloured dot: the words keep the text colour (readable at any
 * size), the dot says it at a glance.
 */
export function JobStateTag({ state }: { state: BatchJobState }) {
  const t = useT();
  return (
    <span data-testid="job-state" data-state={state} className="ml-nowrap">
      <Badge status={STATUS[state]} text={t(`batchJob.jobState.${state}`)} />
    </span>
  );
}
