import { buildApp } from "./app.ts";
import { ConfigError, type ServerConfig } from "./config.ts";
import { redactUrl } from "./contract/redact.ts";
import { fieldCipherOf } from "./crud/field-cipher.ts";
import { reencryptStoredSecrets } from "./crud/reencrypt.ts";
import { openDb } from "./db/client.ts";
import { migrate } from "./db/migrate.ts";
import { applyClientSecret, seed } from "./db/seed.ts";
import { seedDemoSite } from "./demo/demo-site.ts";
import { startDemoWxpay } from "./demo/demo-wxpay.ts";
import { startEmbeddedMetering } from "./modules/metering/embedded-gateway.ts";
import { BatchJobRunner, DEFAULT_LIMITS } from "./modules/operations/batch-jobs/job-runner.ts";
import type { StartPhases } from "./start-phases.ts";
import { warmSheetReader } from "./xlsx/read-workbook.ts";

/**
 * The server's part of a start (main.ts has read the configuration): database, migrations, routes,
 * then, once `weakSecret` has judged the secrets strong, seed and listen.
 */
export async function startServer(
  config: ServerConfig,
  weakSecret: Promise<string | undefined>,
  phases: StartPhases,
): Promise<void> {
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  phases.mark("database");
  const applied = await migrate(db);
  phases.mark("migrations");
  const app = await buildApp({
    config,
    db,
    // Outside production the API browser at /api/docs needs it.
    openApi: !config.production,
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
  phases.mark("routes");
  const weak = await weakSecret;
  if (weak) {
    await app.close();
    await db.close();
    throw new ConfigError(weak);
  }
  phases.mark("secrets");
  const { createdAdmin } = await seed(db, { adminPassword: config.adminPassword });
  if (config.clientSecret) await applyClientSecret(db, config.clientSecret);
  const cipher = fieldCipherOf(config);
  // Stored secrets an older key wrote (a rotated data key, or the signing secret before the data
  // key existed) move to the current key before anything reads them.
  const rekeyed = await reencryptStoredSecrets(db, cipher);
  const demoSeeded = config.demoData && (await seedDemoSite(db, { adminPassword: config.adminPassword }));
  // The demo pays through a local WeChat Pay double (never the real one), started with the server.
  const wxpayDouble = config.demoData
    ? await startDemoWxpay(db, cipher, `http://127.0.0.1:${config.port}`)
    : undefined;
  phases.mark("seed");
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
  // Without the embedded gateway the server still feeds batch jobs into the command queue.
  const batchJobs = metering
    ? undefined
    : new BatchJobRunner(
        db,
        { log: (level, message, fields) => app.log[level](fields ?? {}, message) },
        { intervalMs: 500, limits: DEFAULT_LIMITS, timeZone: config.timeZone },
      ).start();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down: finishing in-flight requests");
    try {
      await metering?.close();
      await batchJobs?.stop();
      await wxpayDouble?.close();
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
  phases.mark("listen");
  app.log.info(
    { startMs: phases.totalMs, phases: phases.ms },
    `Meterline listening on ${address}, ${phases.totalMs} ms after the process started`,
  );
  // The first spreadsheet upload should not wait for its parsing thread to start.
  warmSheetReader();
}
