import { consoleLogger, type LogLevel } from "@meterline/gateway";
import { FieldCipher } from "./crud/field-cipher.ts";
import { openDb } from "./db/client.ts";
import { startEmbeddedMetering } from "./modules/metering/embedded-gateway.ts";

/**
 * The meter gateway as its own process on the registry (design.md §2, scale): meters from the
 * PostgreSQL registry, commands from its queue, readings into it, collectors shared with other
 * gateway processes through leases. The server applies the migrations; this process never does.
 *   DATABASE_URL=… JWT_SECRET=… npm run gateway
 */
async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  const jwtSecret = process.env.JWT_SECRET;
  if (!databaseUrl || !jwtSecret) {
    console.error(
      "The registry gateway needs DATABASE_URL and the server's JWT_SECRET (relay passwords are encrypted with it).",
    );
    process.exit(1);
  }
  const logger = consoleLogger((process.env.LOG_LEVEL as LogLevel | undefined) ?? "info");
  const db = await openDb({ databaseUrl });
  const pollSeconds = Number(process.env.POLL_INTERVAL_SECONDS ?? 900);
  if (!Number.isInteger(pollSeconds) || pollSeconds < 10) {
    console.error(`POLL_INTERVAL_SECONDS must be a whole number ≥ 10: ${process.env.POLL_INTERVAL_SECONDS}`);
    process.exit(1);
  }
  const metering = await startEmbeddedMetering({
    db,
    databaseUrl,
    cipher: new FieldCipher(jwtSecret),
    logger,
    pollIntervalMs: pollSeconds * 1000,
    demoFleet: false,
    ...(process.env.TZ_DEFAULT ? { timeZone: process.env.TZ_DEFAULT } : {}),
  });
  let closing = false;
  const stop = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.log("info", "gateway stopping", { signal });
    await metering.close();
    await db.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
