import type { FastifyInstance } from "fastify";
import { ok, page as pageOf } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { optionalId, optionalString, paging, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import type { EnergyType } from "../line-loss/line-loss.repository.ts";
import { registryTenant } from "../pms/registry-access.ts";
import type { SuspectState } from "./suspects.repository.ts";
import {
  changeState,
  SUSPECT_STATES,
  suspectDetail,
  suspectsPage,
  sweep,
  sweepDailyIfDue,
} from "./suspects.service.ts";

const base = "/api/blade-pms/suspects";
const tags = ["metering"];
const KINDS = [
  "relay-bypass",
  "no-energy-under-load",
  "load-without-energy",
  "sustained-drop",
  "meter-event",
  "night-flow",
  "node-leak",
];

type Params = Record<string, unknown>;

function stateParam(params: Params, required: boolean): SuspectState | undefined {
  const text = optionalString(params, "state");
  if (text === undefined) {
    if (required) throw badRequest("state: 请选择处理状态");
    return undefined;
  }
  if (!(SUSPECT_STATES as string[]).includes(text))
    throw badRequest("state: 状态应为 new、visiting、confirmed 或 dismissed");
  return text as SuspectState;
}

function filterOf(params: Params) {
  const kind = optionalString(params, "kind");
  if (kind !== undefined && !KINDS.includes(kind)) throw badRequest("kind: 未知的嫌疑类型");
  const energy = optionalString(params, "energyType");
  if (energy !== undefined && energy !== "1" && energy !== "2")
    throw badRequest("energyType: 能源类型应为 1(电)或 2(水)");
  const state = stateParam(params, false);
  const nodeId = optionalId(params, "nodeId");
  return {
    ...(state ? { state } : {}),
    ...(nodeId ? { nodeId } : {}),
    ...(kind ? { kind } : {}),
    ...(energy ? { energyType: Number(energy) as EnergyType } : {}),
  };
}

function idParam(params: Params): string {
  const id = optionalId(params, "id");
  if (!id) throw badRequest("id: 请选择嫌疑记录");
  return id;
}

/**
 * The suspect and leak list (窃电与漏水): a sweep of the detectors on demand, the ranked page, one
 * suspect's evidence with its daily series, and an inspector's verdict.
 */
export async function suspectsRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;

  app.post(
    `${base}/sweep`,
    { schema: { tags, summary: "Runs the detectors over the tenant's last 45 days now" } },
    async (request) => {
      const user = await requirePermission(db, request, ["suspects_sweep"]);
      return ok(await sweep(db, registryTenant(user, readParams(request)), timeZone));
    },
  );

  app.get(
    `${base}/page`,
    { schema: { tags, summary: "The tenant's suspects, best rank first, with their labels" } },
    async (request) => {
      const user = await requirePermission(db, request, ["suspects"]);
      const params = readParams(request);
      const { current, size } = paging(params, 200);
      const { records, total } = await suspectsPage(
        db,
        registryTenant(user, params),
        filterOf(params),
        current,
        size,
      );
      return ok(pageOf(records, total, current, size));
    },
  );

  app.get(
    `${base}/detail`,
    { schema: { tags, summary: "One suspect's evidence and its subject's daily series" } },
    async (request) => {
      const user = await requirePermission(db, request, ["suspects"]);
      const params = readParams(request);
      return ok(await suspectDetail(db, registryTenant(user, params), idParam(params), timeZone));
    },
  );

  app.post(
    `${base}/state`,
    {
      schema: {
        tags,
        summary: "An inspector's step on a suspect: visiting, confirmed, dismissed (with a reason), reopened",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, ["suspects_state"]);
      const params = readParams(request);
      const reason = optionalString(params, "reason")?.trim();
      if (reason && reason.length > 255) throw badRequest("reason: 原因不能超过 255 个字");
      const state = stateParam(params, true)!;
      return ok(
        await changeState(
          db,
          registryTenant(user, params),
          idParam(params),
          state,
          reason || undefined,
          user.account,
        ),
      );
    },
  );

  // Each tenant's sweep of a local day runs once, in whichever process claims it first, once the
  // day's midnight reads are in (after 06:00, when the quiet hours of the night are over too).
  const daily = setInterval(() => {
    sweepDailyIfDue(db, new Date(), timeZone).catch((error: unknown) =>
      app.log.warn({ err: error }, "suspect sweep failed"),
    );
  }, 300_000);
  daily.unref();
  app.addHook("onClose", async () => clearInterval(daily));
}
