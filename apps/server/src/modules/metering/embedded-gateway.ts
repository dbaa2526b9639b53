import {
  type GatewayHandle,
  type GatewaySettings,
  type Logger,
  MemoryLeaseStore,
  PgLeaseStore,
  resolveSettings,
  settingsFromEnv,
  startGateway,
} from "@meterline/gateway";
import { type FleetHandle, startFleet } from "@meterline/simulator";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Db } from "../../db/client.ts";
import {
  DEMO_698_FLEET,
  DEMO_FLEET,
  DEMO_TENANT_ID,
  demoAnomalies,
  demoConditions,
  demoDtuSecrets,
} from "../../demo/demo-site.ts";
import { demoSupplyOff } from "../../demo/demo-supply.ts";
import { BatchJobRunner, DEFAULT_LIMITS, type RunnerLimits } from "../operations/batch-jobs/job-runner.ts";
import { DbCommandSource } from "./command-source.db.ts";
import { DbMeterDirectory } from "./meter-directory.db.ts";
import { sweepReadings } from "./reading-retention.ts";
import { DbReadingsSink } from "./readings-sink.db.ts";

/** The gateway's settings in the server: GATEWAY_* over the HTTP host and the tenants' time zone. */
export function embeddedGatewaySettings(options: {
  host?: string;
  timeZone?: string;
  env?: NodeJS.ProcessEnv;
  /**
   * The demo's simulated 698.45 meters carry ESAM doubles keyed with the test key: the demo
   * gateway talks to them through the software cipher double unless GATEWAY_DLT698_CIPHER_PORT
   * names another port. Outside the demo the default stays "none" (698.45 money writes refused).
   */
  demoFleet?: boolean;
}): GatewaySettings {
  return resolveSettings({
    ...(options.host ? { host: options.host } : {}),
    ...(options.demoFleet ? { dlt698CipherPort: "software-test-double" as const } : {}),
    ...settingsFromEnv(options.env),
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    rejectUnknownCollectors: true,
  });
}

export interface EmbeddedMetering {
  gateway: GatewayHandle;
  fleet?: FleetHandle;
  /** The demo's 698.45 building behind its concentrator: a fleet of its own, on the same gateway. */
  concentratorFleet?: FleetHandle;
  close(): Promise<void>;
}

/**
 * The gateway inside the server process (the embedded default, design.md §1): registry-backed
 * directory, database command queue and readings sink; with the demo data, the simulated fleet of
 * the demo site dials it over real TCP so the console shows live readings out of the box.
 */
export async function startEmbeddedMetering(options: {
  db: Db;
  databaseUrl?: string;
  cipher: FieldCipher;
  logger: Logger;
  pollIntervalMs: number;
  demoFleet: boolean;
  /** The tenants' time zone (TZ_DEFAULT): meter clocks and the days of daily usage follow it. */
  timeZone?: string;
  /**
   * Where the DTU port listens unless GATEWAY_HOST says otherwise: the HTTP host in the server, so
   * a console kept on 127.0.0.1 does not open the gateway to the network behind its back.
   */
  host?: string;
  env?: NodeJS.ProcessEnv;
  /** How many priced accounts the sink remembers (GATEWAY_PRICED_ACCOUNTS; readings-sink.db.ts). */
  pricedAccounts?: number;
  /** The batch job runner's pace and window (batch-jobs/job-runner.ts); false runs none here. */
  batchJobs?: Partial<{ intervalMs: number; limits: RunnerLimits }> | false;
}): Promise<EmbeddedMetering> {
  const { db, logger } = options;
  const settings = embeddedGatewaySettings(options);
  const leases = options.databaseUrl
    ? await PgLeaseStore.connect(options.databaseUrl)
    : new MemoryLeaseStore();
  // A poll goes on once its reading is stored; pricing and the alarm pass follow in the stage behind.
  // Where each meter belongs comes from the shared cache of `db` (the server's, or the one the
  // gateway process starts), so a batch of readings asks the database only for meters this
  // process has not seen since the last change.
  const readings = new DbReadingsSink(db, settings.timeZone, {
    acknowledgeStored: true,
    ...(options.pricedAccounts === undefined ? {} : { rememberedAccounts: options.pricedAccounts }),
  });
  const gateway = await startGateway({
    directory: new DbMeterDirectory(db, options.cipher, options.pollIntervalMs),
    commands: new DbCommandSource(db),
    readings,
    leases,
    logger,
    settings,
  });
  const address = gateway.address();
  logger.log("info", "gateway listening", { host: address.host, port: address.port });
  let fleet: FleetHandle | undefined;
  let concentratorFleet: FleetHandle | undefined;
  if (options.demoFleet) {
    const host = address.host === "0.0.0.0" || address.host === "::" ? "127.0.0.1" : address.host;
    // The demo's meters have been running since the demo site was made: a restart of the server
    // finds their registers where a real meter's would be, never back at zero.
    const [site] = await db.query<{ since: Date }>(
      "select create_time as since from sys_tenant where tenant_id = $1",
      [DEMO_TENANT_ID],
    );
    const dtuSecrets = await demoDtuSecrets(db, options.cipher);
    // Relays and valves as the database last knew them: a restart never restores supply by itself.
    const supplyOff = await demoSupplyOff(db);
    const runningSince = site ? { runningSince: new Date(site.since).getTime() } : {};
    fleet = await startFleet({
      ...DEMO_FLEET,
      gateway: { host, port: address.port },
      conditions: demoConditions(),
      // The demo's injected cases go on in the running meters as the history left them.
      ...(site ? { anomalies: demoAnomalies(new Date(site.since).getTime()) } : {}),
      dtuSecrets,
      supplyOff,
      ...runningSince,
    });
    concentratorFleet = await startFleet({
      ...DEMO_698_FLEET,
      gateway: { host, port: address.port },
      dtuSecrets,
      supplyOff,
      ...runningSince,
    });
    logger.log("info", "demo fleet started", {
      meters: DEMO_FLEET.meters + DEMO_698_FLEET.meters,
      dtus: DEMO_FLEET.dtus,
      concentrators: DEMO_698_FLEET.dtus,
    });
  }
  // Batch jobs feed the command queue a window at a time while the gateway drains it.
  const runner =
    options.batchJobs === false
      ? undefined
      : new BatchJobRunner(db, logger, {
          intervalMs: options.batchJobs?.intervalMs ?? 500,
          limits: options.batchJobs?.limits ?? DEFAULT_LIMITS,
          timeZone: settings.timeZone,
        }).start();
  // The reading log grows with every poll: move its old rows to history now and once a day.
  const sweep = () =>
    sweepReadings(db).catch((error: unknown) =>
      logger.log("warn", "reading retention sweep failed", { error: String(error) }),
    );
  void sweep();
  const sweeper = setInterval(sweep, 24 * 3600_000);
  sweeper.unref();
  return {
    gateway,
    fleet,
    concentratorFleet,
    async close() {
      clearInterval(sweeper);
      await runner?.stop();
      await fleet?.close();
      await concentratorFleet?.close();
      await gateway.close();
      // What was stored is priced and judged before the database goes.
      await readings.idle();
      await leases.close();
    },
  };
}
