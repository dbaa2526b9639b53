import { consoleLogger, type LogLevel } from "@meterline/gateway";
import { startSharedCache } from "./cache/shared-cache.ts";
import { ConfigError, pricedAccountsSetting } from "./config.ts";
import { fieldCipherOf } from "./crud/field-cipher.ts";
import { openDb } from "./db/client.ts";
import { IdWorkerLease, idWorkerTableExists } from "./db/id-worker-lease.ts";
import { embeddedGatewaySettings, startEmbeddedMetering } from "./modules/metering/embedded-gateway.ts";
import { checkPortsFree } from "./port-check.ts";

/**
 * The meter gateway as its own process on the registry (design.md §2, scale): meters from the
 * PostgreSQL registry, commands from its queue, readings into it, collectors shared with other
 * gateway processes through leases. The server applies the migrations; this process never does.
 *   DATABASE_URL=… DATA_ENCRYPTION_KEY=… npm run gateway
 */
async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  const dataKey = process.env.DATA_ENCRYPTION_KEY;
  if (!databaseUrl || !dataKey) {
    console.error(
      "The registry gateway needs DATABASE_URL and the server's DATA_ENCRYPTION_KEY (relay passwords and DTU secrets are encrypted with it).",
    );
    process.exit(1);
  }
  const logger = consoleLogger((process.env.LOG_LEVEL as LogLevel | undefined) ?? "info");
  const pollSeconds = Number(process.env.POLL_INTERVAL_SECONDS ?? 900);
  if (!Number.isInteger(pollSeconds) || pollSeconds < 10) {
    console.error(`POLL_INTERVAL_SECONDS must be a whole number ≥ 10: ${process.env.POLL_INTERVAL_SECONDS}`);
    process.exit(1);
  }
  const pricedAccounts = pricedAccountsSetting(process.env);
  const { host, port } = embeddedGatewaySettings({});
  await checkPortsFree([{ setting: "GATEWAY_PORT", host, port, purpose: "the meter gateway's DTU port" }]);
  const db = await openDb({ databaseUrl });
  // Readings and command results carry ids minted here: a worker number no live process shares.
  if (!(await idWorkerTableExists(db))) {
    throw new ConfigError(
      "the database has no id_worker table yet: start the server on it once, so it applies its migrations.",
    );
  }
  const idWorker = await IdWorkerLease.take(db, {
    role: "gateway",
    onProblem: (message, error) => logger.log("warn", message, error ? { error: String(error) } : undefined),
  });
  // What the gateway reads again and again (where each meter belongs) is kept until the database
  // announces a change, as in the server.
  const shared = await startSharedCache(db);
  const metering = await startEmbeddedMetering({
    db,
    databaseUrl,
    // The same keys as the server's, so values it has not re-encrypted yet are still read.
    cipher: fieldCipherOf({
      dataKey,
      previousDataKeys: (process.env.DATA_ENCRYPTION_KEY_PREVIOUS ?? "").split(",").filter(Boolean),
      ...(process.env.JWT_SECRET ? { jwtSecret: process.env.JWT_SECRET } : {}),
    }),
    logger,
    pollIntervalMs: pollSeconds * 1000,
    pricedAccounts,
    demoFleet: false,
    ...(process.env.TZ_DEFAULT ? { timeZone: process.env.TZ_DEFAULT } : {}),
  });
  let closing = false;
  const stop = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.log("info", "gateway stopping", { signal });
    await metering.close();
    await shared.stop();
    await idWorker.release();
    await db.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `The gateway cannot start: ${error.message}` : error);
  process.exit(1);
});
