import { serverMessageOf } from "@meterline/api-client";
import type { BatchProgress, SwitchOutcome } from "@meterline/contracts";
import { api } from "../../../app/api.ts";

const base = "/api/blade-pms/message";

export type Energy = "electric" | "water";

/** Relays: 1 合闸 (supply on), 2 拉闸 (off), 3 prepaid mode. Valves: 1 open, 2 close. */
export type SupplyChoice = 1 | 2 | 3;

/**
 * Queues the commands; answers what the server queued and its own words about it. `tenantId` is the
 * tenant whose meters the platform administrator switches (the server ignores it for anyone else).
 */
export async function switchSupply(
  energy: Energy,
  meterIds: readonly string[],
  choice: SupplyChoice,
  tenantId?: string,
): Promise<{ outcome: SwitchOutcome; said: string }> {
  const tenant = tenantId ? { tenantId } : {};
  const body =
    energy === "electric"
      ? { meterIds, switchType: choice, ...tenant }
      : { meterIds: meterIds.join(","), type: choice, ...tenant };
  const answer = await api.request(`${base}/${energy === "electric" ? "switchBatch" : "waterSwitchBatch"}`, {
    method: "POST",
    body,
  });
  return { outcome: (answer as { data: SwitchOutcome }).data, said: serverMessageOf(answer) };
}

export const loadBatchProgress = (batchId: string, tenantId?: string) =>
  api.get<BatchProgress>(`${base}/batchProgress`, { batchId, ...(tenantId ? { tenantId } : {}) });

/** The share of a batch settled, 0–100. */
export const settledPercent = (p: BatchProgress) =>
  p.total === 0 ? 100 : Math.floor(((p.success + p.fail + p.timeout) * 100) / p.total);
