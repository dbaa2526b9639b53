import type { BatchJobSummary } from "@meterline/contracts";
import type { MessageKey } from "../../../i18n/index.tsx";

type Words = (key: MessageKey) => string;

/** The switch choice of a job's params: relays carry switchType, valves type (spec §7). */
function choiceOf(params: Record<string, unknown>): number | undefined {
  const raw = params.switchType ?? params.type;
  const choice = Number(raw);
  return Number.isInteger(choice) && choice >= 1 && choice <= 3 ? choice : undefined;
}

/**
 * What a job does, in words: 拉闸 / 合闸 / 预付费模式 for relays, 开阀 / 关阀 for valves, the write or
 * read itself for the others. The same words as the meter screens' buttons.
 */
export function actionWords(job: Pick<BatchJobSummary, "kind" | "params">, t: Words): string {
  const choice = choiceOf(job.params ?? {});
  if (job.kind === "switch" && choice) return t(`switch.electric.${choice}` as MessageKey);
  if (job.kind === "valve" && choice && choice < 3) return t(`switch.water.${choice}` as MessageKey);
  return t(`batchJob.kindName.${job.kind}` as MessageKey);
}
