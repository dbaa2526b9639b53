import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TokenResponse } from "@meterline/contracts";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { buildApp } from "../src/app.ts";
import { type Db, openDb } from "../src/db/client.ts";
import { md5Hex } from "../src/modules/auth/password.ts";
import type { Backoff } from "../src/modules/notices/owner-notice.service.ts";
import type { SmsProvider } from "../src/modules/sms/sms-provider.ts";
import type { ApiLogPolicy } from "../src/plugins/api-log.ts";
import {
  ADMIN_PASSWORD,
  databaseUrlOf,
  onServer,
  pgTemplateOfEnv,
  prepare,
  templateOfEnv,
} from "./db-template.ts";

export const BASIC = `Basic ${Buffer.from("saber:saber_secret").toString("base64")}`;
export { ADMIN_PASSWORD };

export interface TestServer {
  app: FastifyInstance;
  db: Db;
  /** The signing secret the server was built with. */
  jwtSecret: string;
  /** The data-encryption key of its stored secrets. */
  dataKey: string;
  /** The PostgreSQL database of this server, when TEST_DATABASE_URL is set (PGlite otherwise). */
  databaseUrl?: string;
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
  /** Signs in through the token endpoint and returns the token answer's body. */
  login(account?: string, password?: string, tenantId?: string): Promise<TokenResponse>;
  /** GET/POST with the console's headers and a bearer token. */
  call(
    method: "GET" | "POST",
    url: string,
    token: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** A new server on a test server's database and secrets: what a restart, or another process, sees. */
export function reopenApp(
  server: Pick<TestServer, "db" | "jwtSecret" | "dataKey">,
): Promise<FastifyInstance> {
  return buildApp({
    db: server.db,
    config: {
      jwtSecret: server.jwtSecret,
      dataKey: server.dataKey,
      captchaEnabled: false,
      production: false,
      timeZone: "Asia/Shanghai",
    },
    // Tests that need the WeChat Pay query job run it themselves, at the moment they choose.
    wxpayQueryMs: 0,
    // Likewise the hand-over of NB-IoT commands to their platforms (iot-platform tests call it).
    iotDispatchMs: 0,
    partitionUpkeep: false,
  });
}

/**
 * A migrated, seeded server on a database of its own: in-memory PGlite by default, or a fresh
 * database on the PostgreSQL server named by TEST_DATABASE_URL (dropped again on close).
 */
export async function startTestServer(
  options: {
    captchaEnabled?: boolean;
    production?: boolean;
    apiLog?: ApiLogPolicy;
    /** Run the owner SMS job queue (off unless a test is about it). */
    notices?: { pollSeconds?: number; backoff?: Backoff };
    smsProviders?: Record<number, SmsProvider>;
    /** `host:port` entries data sources may reach (DATASOURCE_ALLOWED_HOSTS); none by default. */
    datasourceAllowedHosts?: string;
    /** Balancers whose X-Forwarded-For is believed (TRUST_PROXY); none by default. */
    trustProxy?: string[];
    /** How the counter follows a scanned payment code (short in tests that time one out). */
    codePayTiming?: { pollMs: number; timeoutMs: number };
  } = {},
): Promise<TestServer> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  // Made once per run by scripts/test.mjs on PGlite: the database starts migrated and seeded.
  const template = templateOfEnv();
  let dropDatabase: (() => Promise<void>) | undefined;
  let databaseUrl: string | undefined;
  // Made once per run by scripts/test.mjs on PostgreSQL: each database is a copy of it.
  const pgTemplate = pgTemplateOfEnv();
  if (serverUrl) {
    const name = `meterline_t_${randomBytes(6).toString("hex")}`;
    await onServer(serverUrl, `create database ${name}${pgTemplate ? ` template ${pgTemplate}` : ""}`);
    databaseUrl = databaseUrlOf(serverUrl, name);
    dropDatabase = () => onServer(serverUrl, `drop database if exists ${name} with (force)`);
  }
  const db = await openDb({ databaseUrl, ...(template ? { startFrom: template } : {}) });
  if (!template && !pgTemplate) await prepare(db);
  const jwtSecret = randomBytes(32).toString("hex");
  const dataKey = randomBytes(32).toString("hex");
  // Files kept on local disk go to a directory of this server's own, removed on close.
  const dataDir = await mkdtemp(path.join(tmpdir(), "meterline-data-"));
  const app = await buildApp({
    db,
    config: {
      jwtSecret,
      dataKey,
      captchaEnabled: options.captchaEnabled ?? false,
      production: options.production ?? false,
      timeZone: "Asia/Shanghai",
      dataDir,
      ...(options.apiLog ? { apiLog: options.apiLog } : {}),
      ...(options.datasourceAllowedHosts ? { datasourceAllowedHosts: options.datasourceAllowedHosts } : {}),
      ...(options.trustProxy ? { trustProxy: options.trustProxy } : {}),
    },
    wxpayQueryMs: 0,
    // Likewise the hand-over of NB-IoT commands to their platforms (iot-platform tests call it).
    iotDispatchMs: 0,
    partitionUpkeep: false,
    ...(options.notices ? { notices: options.notices } : {}),
    ...(options.smsProviders ? { smsProviders: options.smsProviders } : {}),
    ...(options.codePayTiming ? { codePayTiming: options.codePayTiming } : {}),
  });
  const inject = (o: InjectOptions) => app.inject(o);
  return {
    app,
    db,
    jwtSecret,
    dataKey,
    ...(databaseUrl ? { databaseUrl } : {}),
    inject,
    async login(account = "admin", password = ADMIN_PASSWORD, tenantId = "000000") {
      const res = await inject({
        method: "POST",
        url: "/api/blade-auth/oauth/token",
        query: {
          tenantId,
          username: account,
          password: md5Hex(password),
          grant_type: "password",
          scope: "all",
        },
        headers: { authorization: BASIC, "tenant-id": tenantId },
      });
      if (res.statusCode !== 200) throw new Error(`login of ${account} failed: ${res.body}`);
      return res.json();
    },
    call(method, url, token, payload) {
      return inject({
        method,
        url,
        headers: { authorization: BASIC, "blade-auth": `bearer ${token}` },
        ...(payload === undefined ? {} : { payload: payload as InjectOptions["payload"] }),
      });
    },
    async close() {
      // Let the last responses' log writes start before closing, so none meets a closed database.
      await new Promise((resolve) => setImmediate(resolve));
      await app.close();
      await db.close();
      await dropDatabase?.();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A multipart body carrying one file in the `file` field, as the console's uploads send it. */
export function multipartFile(filename: string, content: Buffer) {
  const boundary = "----meterline-test";
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
    "Content-Type: application/octet-stream\r\n\r\n";
  return {
    payload: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

/** A TCP port nobody listens on right now, drawn where outgoing connections never take one. */
export { freePort } from "../../../scripts/free-port.mjs";
