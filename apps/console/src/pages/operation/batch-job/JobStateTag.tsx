import type { BatchJobState } from "@meterline/contracts";
import { Tag } from "antd";
import { useT } from "../../../i18n/index.tsx";

const COLORS: Record<BatchJobState, string> = {
  running: "processing",
  done: "success",
  cancelled: "default",
};

/** A job's state in words, coloured as it reads: running, done, cancelled. */
export function JobStateTag({ state }: { state: BatchJobState }) {
  const t = useT();
  return (
    <Tag color={COLORS[state]} data-testid="job-state" data-state={state}>
      {t(`batchJob.jobState.${state}`)}
    </Tag>
  );
}
