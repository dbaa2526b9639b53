import { buildApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { redactUrl } from "./contract/redact.ts";
import { fieldCipherOf } from "./crud/field-cipher.ts";
import { reencryptStoredSecrets } from "./crud/reencrypt.ts";
import { openDb } from "./db/client.ts";
import { migrate } from "./db/migrate.ts";
import { applyClientSecret, seed } from "./db/seed.ts";
import { seedDemoSite } from "./demo/demo-site.ts";
import { startEmbeddedMetering } from "./modules/metering/embedded-gateway.ts";
import { warmSheetReader } from "./xlsx/read-workbook.ts";

/** Starts Meterline: configuration, database, migrations, seed, then the HTTP server. */
async function main() {
  const config = await loadConfig();
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const applied = await migrate(db);
  const { createdAdmin } = await seed(db, { adminPassword: config.adminPassword });
  if (config.clientSecret) await applyClientSecret(db, config.clientSecret);
  const cipher = fieldCipherOf(config);
  // Stored secrets an older key wrote (a rotated data key, or the signing secret before the data
  // key existed) move to the current key before anything reads them.
  const rekeyed = await reencryptStoredSecrets(db, cipher);
  const demoSeeded = config.demoData && (await seedDemoSite(db, { adminPassword: config.adminPassword }));
  const app = await buildApp({
    config,
    db,
    // Owner SMS for balance alarms run here, as jobs of the database's own queue (pg-boss).
    notices: {},
    logger: {
      level: config.logLevel,
      serializers: {
        // The token endpoint carries credentials in its query string: log the call, not them.
        req: (req: { method: string; url: string; ip?: string }) => ({
          method: req.method,
          url: redactUrl(req.url),
          remoteAddress: req.ip,
        }),
      },
    },
  });
  app.log.info(
    {
      database: db.kind,
      dataDir: config.databaseUrl ? undefined : config.dataDir,
      applied,
      createdAdmin,
      ...rekeyed,
      demoSeeded,
    },
    "database ready",
  );
  if (rekeyed.unreadable > 0)
    app.log.warn(
      { unreadable: rekeyed.unreadable },
      "stored secrets no configured key can read: set the key that wrote them in DATA_ENCRYPTION_KEY_PREVIOUS",
    );

  const metering = config.gatewayEmbedded
    ? await startEmbeddedMetering({
        db,
        ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
        cipher,
        logger: { log: (level, message, fields) => app.log[level](fields ?? {}, message) },
        pollIntervalMs: config.pollIntervalSeconds * 1000,
        demoFleet: config.demoData,
        timeZone: config.timeZone,
        host: config.host,
      })
    : undefined;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down: finishing in-flight requests");
    try {
      await metering?.close();
      await app.close();
      await db.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, "unclean shutdown");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  const address = await app.listen({ host: config.host, port: config.port });
  app.log.info(`Meterline listening on ${address}`);
  // The first spreadsheet upload should not wait for its parsing thread to start.
  warmSheetReader();
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`Meterline cannot start: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
