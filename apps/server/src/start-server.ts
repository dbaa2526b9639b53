import { buildApp } from "./app.ts";
import { ConfigError, type ServerConfig } from "./config.ts";
import { redactUrl } from "./contract/redact.ts";
import { fieldCipherOf } from "./crud/field-cipher.ts";
import { reencryptStoredSecrets } from "./crud/reencrypt.ts";
import { openDb } from "./db/client.ts";
import { analyzeEmbedded } from "./db/embedded-statistics.ts";
import { apiProcessesBesidesThis, IdWorkerLease, idWorkerTableExists } from "./db/id-worker-lease.ts";
import { migrate } from "./db/migrate.ts";
import { applyClientSecret, seed } from "./db/seed.ts";
import { startDemoAlipay } from "./demo/demo-alipay.ts";
import { startDemoNbiot } from "./demo/demo-nbiot.ts";
import { seedDemoSite } from "./demo/demo-site.ts";
import { startDemoSms } from "./demo/demo-sms.ts";
import { startDemoWxpay } from "./demo/demo-wxpay.ts";
import { embeddedGatewaySettings, startEmbeddedMetering } from "./modules/metering/embedded-gateway.ts";
import { BatchJobRunner, DEFAULT_LIMITS } from "./modules/operations/batch-jobs/job-runner.ts";
import { tenantsOnLocalStorage } from "./modules/storage/storage.service.ts";
import { checkPortsFree, type PortToCheck, portError } from "./port-check.ts";
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
  const httpPort: PortToCheck = { setting: "PORT", host: config.host, port: config.port, purpose: "HTTP" };
  const gatewayPorts: PortToCheck[] = [];
  if (config.gatewayEmbedded) {
    const gateway = embeddedGatewaySettings({ host: config.host });
    gatewayPorts.push({
      setting: "GATEWAY_PORT",
      host: gateway.host,
      port: gateway.port,
      purpose: "the embedded meter gateway's DTU port",
    });
  }
  // Before the database is touched: a port in use must not leave a half-done start behind.
  await checkPortsFree([httpPort, ...gatewayPorts]);
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  phases.mark("database");
  // Before anything mints an id (migrations do): this process's worker number, unique among the
  // live processes. A database older than the id_worker table has no live process that leased
  // one, and gets it from the migrations.
  const leaseIdWorker = () =>
    IdWorkerLease.take(db, {
      role: "api",
      onProblem: (message, error) => console.warn(message, error ?? ""),
    });
  const earlyWorker = (await idWorkerTableExists(db)) ? await leaseIdWorker() : undefined;
  const applied = await migrate(db);
  phases.mark("migrations");
  const idWorker = earlyWorker ?? (await leaseIdWorker());
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
    await idWorker.release();
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
  // And through a local Alipay double (the owner page offers Alipay beside WeChat Pay).
  const alipayDouble = config.demoData
    ? await startDemoAlipay(db, cipher, `http://127.0.0.1:${config.port}`)
    : undefined;
  // And sends its SMS (the owner page's sign-in codes) to a local double that prints them in the log.
  const demoSms = config.demoData ? await startDemoSms(db, cipher, (line) => app.log.info(line)) : undefined;
  // And has NB-IoT water meters reporting through local CTWing, OneNET and IoTDA doubles.
  const demoNbiot = config.demoData
    ? await startDemoNbiot(
        db,
        cipher,
        `http://127.0.0.1:${config.port}`,
        (line) => app.log.warn(line),
        config.demoNbiotWakeSeconds * 1000,
      )
    : undefined;
  phases.mark("seed");
  // A database just made, migrated or filled with the demo is analyzed before the first request:
  // the embedded one has no autovacuum to do it (db/embedded-statistics.ts), and a copy of this
  // folder starts with the statistics in it.
  if (applied.length > 0 || demoSeeded) await analyzeEmbedded(db);
  phases.mark("statistics");
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
  // Local storage is each server's own disk: a file uploaded here is not served by the others.
  const otherApiServers = await apiProcessesBesidesThis(db);
  const localTenants = otherApiServers > 0 ? await tenantsOnLocalStorage(db) : 0;
  if (localTenants > 0)
    app.log.warn(
      { otherApiServers, tenantsOnLocalStorage: localTenants },
      "several API servers share this database while files are kept on local storage: a file uploaded through one server is not served by the others; enable S3-compatible object storage (资源管理 → 对象存储) for every tenant",
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
        pricedAccounts: config.pricedAccounts,
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
      await alipayDouble?.close();
      await demoSms?.close();
      await demoNbiot?.close();
      await app.close();
      await idWorker.release();
      await db.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, "unclean shutdown");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  // Taken between the check and now: the same message, not a stack.
  const address = await app
    .listen({ host: config.host, port: config.port })
    .catch((error: NodeJS.ErrnoException) => {
      throw error.code ? portError(httpPort, error.code) : error;
    });
  phases.mark("listen");
  app.log.info(
    { startMs: phases.totalMs, phases: phases.ms },
    `Meterline listening on ${address}, ${phases.totalMs} ms after the process started`,
  );
  // The first spreadsheet upload should not wait for its parsing thread to start.
  warmSheetReader();
}
