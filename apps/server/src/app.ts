import path from "node:path";
import type { Duplex } from "node:stream";
import compress from "@fastify/compress";
import formbody from "@fastify/formbody";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { type SharedCache, startSharedCache } from "./cache/shared-cache.ts";
import type { ServerConfig } from "./config.ts";
import { failure, ok } from "./contract/envelope.ts";
import { familyAliasOf } from "./contract/family-aliases.ts";
import { fieldCipherOf } from "./crud/field-cipher.ts";
import type { Db } from "./db/client.ts";
import { accessRoutes } from "./modules/access/access.routes.ts";
import { alarmRoutes } from "./modules/alarm/alarm.routes.ts";
import { ignoreListRoutes } from "./modules/alarm/ignore-list.routes.ts";
import { alipayRoutes } from "./modules/alipay/alipay.routes.ts";
import type { CodePayTiming } from "./modules/alipay/alipay-codepay.ts";
import { apportionmentRoutes } from "./modules/apportionment/apportionment.routes.ts";
import { AuthRepository } from "./modules/auth/auth.repository.ts";
import { authRoutes } from "./modules/auth/auth.routes.ts";
import { AuthService } from "./modules/auth/auth.service.ts";
import { counterCodePayRoutes } from "./modules/counter-pay/counter-codepay.routes.ts";
import { allowedEndpoints } from "./modules/develop/datasource-address.ts";
import { developRoutes } from "./modules/develop/develop.routes.ts";
import { dictRoutes } from "./modules/dict/dict.routes.ts";
import { fileRoutes } from "./modules/file/file.routes.ts";
import { forecastWarningJob } from "./modules/forecast-warnings/forecast-warnings.job.ts";
import { iotPlatformRoutes } from "./modules/iot-platform/iot-platform.routes.ts";
import { lineLossRoutes } from "./modules/line-loss/line-loss.routes.ts";
import { liveRoutes } from "./modules/live/live.routes.ts";
import { menuRoutes } from "./modules/menu/menu.routes.ts";
import { currentDataRoutes } from "./modules/metering/current-data.routes.ts";
import { dailyTrendRoutes } from "./modules/metering/daily-trend.routes.ts";
import { homepageRoutes } from "./modules/metering/homepage.routes.ts";
import { manualReadImportRoutes } from "./modules/metering/manual-read-import.routes.ts";
import { meterFileRoutes } from "./modules/metering/meter-file.routes.ts";
import { readingCorrectionRoutes } from "./modules/metering/reading-corrections.routes.ts";
import { attentionRoutes } from "./modules/money/attention.routes.ts";
import { moneyRoutes } from "./modules/money/money.routes.ts";
import { moneyExportRoutes } from "./modules/money/money-export.routes.ts";
import { monthStatementRoutes } from "./modules/money/month-statement.routes.ts";
import { ownerRechargeRoutes } from "./modules/money/owner-recharge.routes.ts";
import { paymentRoutes } from "./modules/money/payment.routes.ts";
import { type NoticeQueue, startNoticeQueue } from "./modules/notices/notice-queue.ts";
import { noticeRoutes } from "./modules/notices/notices.routes.ts";
import type { Backoff } from "./modules/notices/owner-notice.service.ts";
import { batchJobRoutes } from "./modules/operations/batch-jobs/batch-job.routes.ts";
import { switchRoutes } from "./modules/operations/switch.routes.ts";
import { waterWriteRoutes } from "./modules/operations/water-writes.routes.ts";
import { ownerPageRoutes } from "./modules/owner-page/owner-page.routes.ts";
import { paramRoutes } from "./modules/param/param.routes.ts";
import { registryRoutes } from "./modules/pms/index.ts";
import { setupRoutes } from "./modules/pms/setup.routes.ts";
import { registryImportRoutes } from "./modules/pms-import/registry-import.routes.ts";
import { regionRoutes } from "./modules/region/region.routes.ts";
import { reportRoutes } from "./modules/report/report.routes.ts";
import { defaultProviders, smsRoutes } from "./modules/sms/sms.routes.ts";
import type { SmsProvider } from "./modules/sms/sms-provider.ts";
import { linkedAccountRoutes } from "./modules/social/linked-accounts.routes.ts";
import { socialRoutes } from "./modules/social/social.routes.ts";
import { SocialSignIn } from "./modules/social/social-sign-in.ts";
import { storageRoutes } from "./modules/storage/storage.routes.ts";
import { StorageService } from "./modules/storage/storage.service.ts";
import { suspectsRoutes } from "./modules/suspects/suspects.routes.ts";
import { tenantRoutes } from "./modules/tenant/tenant.routes.ts";
import { topologyViewRoutes } from "./modules/topology-view/topology-view.routes.ts";
import { userAdminRoutes } from "./modules/user/user-admin.routes.ts";
import { userImportRoutes } from "./modules/user/user-import.routes.ts";
import { workflowRoutes } from "./modules/workflow/workflow.routes.ts";
import { wxpayRoutes } from "./modules/wxpay/wxpay.routes.ts";
import apiLog from "./plugins/api-log.ts";
import apiScope from "./plugins/api-scope.ts";
import authentication from "./plugins/authentication.ts";
import { consoleStatic } from "./plugins/console-static.ts";
import embeddedStatistics from "./plugins/embedded-statistics.ts";
import errorHandler from "./plugins/error-handler.ts";
import fileLinks from "./plugins/file-links.ts";
import inputGuard from "./plugins/input-guard.ts";
import logRetention from "./plugins/log-retention.ts";
import partitionUpkeep from "./plugins/partition-upkeep.ts";
import securityHeaders from "./plugins/security-headers.ts";
import { resourceRoutes } from "./resources/index.ts";

export const VERSION = "0.1.0";

/**
 * Requests Node cannot even parse (a request line or headers past 16 KB, broken framing) still get
 * the envelope, never Fastify's own error shape.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex) {
  if (!socket.writable) return socket.destroy(error);
  const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
  const body = JSON.stringify(
    failure(400, tooLarge ? "query: 请求行或请求头不能超过 16 KB" : "request: 请求格式错误"),
  );
  socket.end(
    "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n" +
      `X-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

export interface AppOptions {
  config: Pick<ServerConfig, "jwtSecret" | "dataKey" | "captchaEnabled" | "consoleDist" | "timeZone"> &
    Partial<
      Pick<
        ServerConfig,
        | "production"
        | "previousDataKeys"
        | "apiLog"
        | "dataDir"
        | "databaseUrl"
        | "datasourceAllowedHosts"
        | "trustProxy"
      >
    >;
  db: Db;
  logger?: FastifyServerOptions["logger"];
  /**
   * Runs the owner notification sender (the SMS job queue) in this process: the server does,
   * tests only where they test it. Without it, messages stay queued for a process that does.
   */
  notices?: { pollSeconds?: number; backoff?: Backoff };
  /** SMS providers by dictionary `sms` key (tests give them short time limits). */
  smsProviders?: Record<number, SmsProvider>;
  /**
   * How often this process asks WeChat Pay about unpaid orders past a minute (the query job); 0
   * leaves it to the tests that run it themselves. Every 30 s by default.
   */
  wxpayQueryMs?: number;
  /** How often queued commands of NB-IoT meters are handed to their platforms (0: never, tests drive it). */
  iotDispatchMs?: number;
  /**
   * How the counter follows a scanned payment code the payer must confirm (poll, then reverse or
   * cancel); each channel's own advice by default, shorter in tests.
   */
  codePayTiming?: CodePayTiming;
  /**
   * Runs the partition upkeep (months ahead, strays out of the default partition) when ready and
   * daily; tests turn it off and call ensurePartitions themselves, as they write whole past months
   * after the server is ready (a server seeds its demo before it is).
   */
  partitionUpkeep?: boolean;
  /**
   * Build the OpenAPI document of the routes (app.swagger(), in-process; served only outside
   * production). On by default, for tests and tools; the production server leaves it out, which
   * spares its start the loading of the generator.
   */
  openApi?: boolean;
}

declare module "fastify" {
  interface FastifyInstance {
    /** What every request reads (sessions, grants, scopes, labels), kept true by change announcements. */
    sharedCache: SharedCache;
  }
}

/** Builds the whole server without listening, so tests drive it in-process with `inject`. */
export async function buildApp({
  config,
  db,
  logger = false,
  notices,
  smsProviders,
  openApi = true,
  wxpayQueryMs = 30_000,
  iotDispatchMs = 5_000,
  codePayTiming,
  partitionUpkeep: upkeepPartitions = true,
}: AppOptions): Promise<FastifyInstance> {
  const startedAt = new Date();
  const app = Fastify({
    logger,
    // Ids beyond 2^53 must survive: the contract sends them as strings, and so do we.
    bodyLimit: 2 * 1024 * 1024,
    requestTimeout: 60_000,
    return503OnClosing: true,
    clientErrorHandler: answerClientError,
    // Behind balancers (TRUST_PROXY) the client's address is the one they forward: sign-in
    // throttling, logs and the owner page's limits count per client, not per balancer.
    trustProxy: config.trustProxy?.length ? config.trustProxy : false,
    rewriteUrl: (request) => familyAliasOf(request.url ?? "/"),
  });
  const shared = await startSharedCache(db);
  app.decorate("sharedCache", shared.cache);
  app.addHook("onClose", async () => shared.stop());
  const authRepository = new AuthRepository(db);
  const social = new SocialSignIn(db, fieldCipherOf(config));
  const auth = new AuthService(authRepository, config, db, social);
  // Dead tokens and captchas are only kept a day for audit; sweep them hourly.
  const sweeper = setInterval(() => {
    authRepository
      .purgeExpired()
      .then(() => social.purge())
      .catch((error: unknown) => app.log.warn({ err: error }, "token sweep failed"));
  }, 3_600_000);
  sweeper.unref();
  app.addHook("onClose", async () => clearInterval(sweeper));

  await app.register(formbody);
  await app.register(securityHeaders);
  // Answers above 1 KB travel compressed (brotli or gzip, as the client accepts); the console's
  // files come precompressed from the build, and spreadsheets (zip inside) are left as they are.
  await app.register(compress, { global: true, threshold: 1024, encodings: ["br", "gzip"] });
  await app.register(errorHandler, { db });
  await app.register(inputGuard);
  await app.register(authentication, { auth });
  await app.register(apiLog, { db, ...(config.apiLog ? { policy: config.apiLog } : {}) });
  await app.register(logRetention, { db });
  if (upkeepPartitions) await app.register(partitionUpkeep, { db });
  if (db.kind === "pglite") await app.register(embeddedStatistics, { db });
  await app.register(apiScope, { db });
  await app.register(fileLinks, { serverSecret: config.jwtSecret, db });
  if (openApi) {
    const { default: swagger } = await import("@fastify/swagger");
    await app.register(swagger, {
      openapi: {
        info: {
          title: "Meterline API",
          version: VERSION,
          description: "Blade wire contract and /api/blade-pms",
        },
        components: {
          securitySchemes: { bladeAuth: { type: "apiKey", in: "header", name: "Blade-Auth" } },
        },
        security: [{ bladeAuth: [] }],
      },
    });
    // The API browser maps every route for whoever asks: a production server does not publish it
    // (tests and tools still read app.swagger() in-process).
    if (!config.production) {
      const { default: swaggerUi } = await import("@fastify/swagger-ui");
      await app.register(swaggerUi, { routePrefix: "/api/docs" });
      app.get("/api/openapi.json", { config: { public: true }, schema: { hide: true } }, async () =>
        app.swagger(),
      );
    }
  }
  app.get(
    "/api/health",
    {
      config: { public: true },
      schema: { tags: ["system"], summary: "Liveness, version and database kind" },
    },
    async () => {
      await db.query("select 1");
      return ok({
        version: VERSION,
        database: db.kind,
        uptimeSeconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
        startedAt: startedAt.toISOString(),
      });
    },
  );

  await app.register(authRoutes, { auth, db, captchaEnabled: config.captchaEnabled, social });
  await app.register(socialRoutes, { db, auth, social, timeZone: config.timeZone });
  await app.register(linkedAccountRoutes, { db, social, timeZone: config.timeZone });
  await app.register(menuRoutes, { db });
  await app.register(tenantRoutes, { db, timeZone: config.timeZone });
  await app.register(userAdminRoutes, {
    db,
    timeZone: config.timeZone,
    production: Boolean(config.production),
  });
  await app.register(userImportRoutes, {
    db,
    timeZone: config.timeZone,
    production: Boolean(config.production),
  });
  await app.register(registryImportRoutes, {
    db,
    timeZone: config.timeZone,
    cipher: fieldCipherOf(config),
  });
  await app.register(reportRoutes, { db, timeZone: config.timeZone });
  await app.register(dailyTrendRoutes, { db, timeZone: config.timeZone });
  await app.register(lineLossRoutes, { db, timeZone: config.timeZone });
  await app.register(topologyViewRoutes, { db });
  await app.register(apportionmentRoutes, { db, timeZone: config.timeZone });
  await app.register(suspectsRoutes, { db, timeZone: config.timeZone });
  await app.register(forecastWarningJob, { db, timeZone: config.timeZone });
  await app.register(readingCorrectionRoutes, { db, timeZone: config.timeZone });
  await app.register(currentDataRoutes, { db });
  await app.register(meterFileRoutes, { db, timeZone: config.timeZone });
  await app.register(manualReadImportRoutes, { db, timeZone: config.timeZone });
  await app.register(homepageRoutes, { db, timeZone: config.timeZone });
  await app.register(switchRoutes, { db });
  await app.register(liveRoutes, { db });
  await app.register(batchJobRoutes, { db });
  await app.register(waterWriteRoutes, { db, timeZone: config.timeZone });
  await app.register(alarmRoutes, { db, timeZone: config.timeZone });
  await app.register(ignoreListRoutes, { db, timeZone: config.timeZone });
  await app.register(moneyRoutes, { db, timeZone: config.timeZone });
  await app.register(paymentRoutes, { db, timeZone: config.timeZone });
  await app.register(ownerRechargeRoutes, { db, timeZone: config.timeZone });
  await app.register(moneyExportRoutes, { db, timeZone: config.timeZone });
  await app.register(monthStatementRoutes, { db, timeZone: config.timeZone });
  await app.register(wxpayRoutes, {
    db,
    cipher: fieldCipherOf(config),
    timeZone: config.timeZone,
    sweepMs: wxpayQueryMs,
  });
  await app.register(alipayRoutes, { db, cipher: fieldCipherOf(config), timeZone: config.timeZone });
  await app.register(counterCodePayRoutes, {
    db,
    cipher: fieldCipherOf(config),
    timeZone: config.timeZone,
    ...(codePayTiming ? { codePayTiming } : {}),
  });
  await app.register(iotPlatformRoutes, {
    db,
    cipher: fieldCipherOf(config),
    timeZone: config.timeZone,
    dispatchMs: iotDispatchMs,
  });
  // Files on the server's own disk (the default storage) live under DATA_DIR/files.
  const storage = new StorageService(db, fieldCipherOf(config), path.join(config.dataDir ?? "data", "files"));
  app.addHook("onClose", async () => storage.close());
  await app.register(resourceRoutes, {
    db,
    timeZone: config.timeZone,
    cipher: fieldCipherOf(config),
    storage,
  });
  await app.register(storageRoutes, { db, storage });
  const providers = smsProviders ?? defaultProviders();
  await app.register(smsRoutes, { db, cipher: fieldCipherOf(config), providers });
  let noticeQueue: NoticeQueue | undefined;
  await app.register(noticeRoutes, {
    db,
    cipher: fieldCipherOf(config),
    providers,
    queue: () => noticeQueue,
  });
  await app.register(attentionRoutes, { db, timeZone: config.timeZone, queue: () => noticeQueue });
  await app.register(setupRoutes, { db });
  await app.register(ownerPageRoutes, {
    db,
    cipher: fieldCipherOf(config),
    providers,
    secret: config.jwtSecret,
    timeZone: config.timeZone,
  });
  await app.register(dictRoutes, { db, timeZone: config.timeZone });
  await app.register(accessRoutes, { db });
  await app.register(regionRoutes, { db });
  await app.register(paramRoutes, { db, timeZone: config.timeZone });
  await app.register(fileRoutes, { db, storage });
  await app.register(registryRoutes, { db, timeZone: config.timeZone });
  await app.register(workflowRoutes, { db, timeZone: config.timeZone });
  await app.register(developRoutes, {
    db,
    cipher: fieldCipherOf(config),
    allowed: allowedEndpoints(config.datasourceAllowedHosts, config.databaseUrl),
    timeZone: config.timeZone,
  });
  if (config.consoleDist) await app.register(consoleStatic, { root: config.consoleDist });
  if (notices) {
    noticeQueue = await startNoticeQueue({
      db,
      cipher: fieldCipherOf(config),
      providers,
      ...notices,
      log: (message, error) => app.log.warn({ err: error }, message),
    });
    const started = noticeQueue;
    app.addHook("onClose", async () => started.stop());
  }
  return app;
}
