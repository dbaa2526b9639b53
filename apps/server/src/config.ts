import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { isIP } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { allowedEndpoints } from "./modules/develop/datasource-address.ts";
import { DEFAULT_PRICED_ACCOUNTS } from "./modules/money/priced-accounts.ts";
import { type ApiLogPolicy, DEFAULT_API_LOG } from "./plugins/api-log-policy.ts";
import { MIN_SECRET_LENGTH, weakSecretProblem } from "./secret-strength.ts";

export interface ServerConfig {
  host: string;
  port: number;
  /** Embedded database and generated secrets live here unless DATABASE_URL is set. */
  dataDir: string;
  databaseUrl?: string;
  production: boolean;
  /** HS256 key of access and refresh tokens. */
  jwtSecret: string;
  /** Key of stored secrets (DATA_ENCRYPTION_KEY), apart from the signing key so each rotates alone. */
  dataKey: string;
  /** Data keys being rotated away from (DATA_ENCRYPTION_KEY_PREVIOUS): read, re-encrypted at start. */
  previousDataKeys: string[];
  /** Password of the platform `admin` when it is first seeded. */
  adminPassword: string;
  /**
   * Secret of the console's OAuth client `saber`, stored hashed in its place at every start; the
   * console must be built with the same CLIENT_SECRET. Unset: the published `saber_secret` (embedded only).
   */
  clientSecret?: string;
  captchaEnabled: boolean;
  /** Seed the demo site (tenant 100001); on by default in the embedded mode, never in production. */
  demoData: boolean;
  /** Run the meter gateway inside this process (the embedded default); else `npm run gateway`. */
  gatewayEmbedded: boolean;
  /** How often each meter is polled by the embedded gateway. */
  pollIntervalSeconds: number;
  /** GATEWAY_PRICED_ACCOUNTS: the priced accounts the embedded gateway remembers. */
  pricedAccounts: number;
  /** The demo's NB-IoT water meters: how often each wakes and reports through its platform double. */
  demoNbiotWakeSeconds: number;
  /** Built console served at `/`; absent in API-only tests. */
  consoleDist?: string;
  logLevel: string;
  timeZone: string;
  /** Which API calls are written to the API log, and how it is buffered (API_LOG*). */
  apiLog: ApiLogPolicy;
  /**
   * `host:port` entries (comma separated) that data sources may connect to (DATASOURCE_ALLOWED_HOSTS);
   * unset: only the host of DATABASE_URL.
   */
  datasourceAllowedHosts?: string;
  /**
   * The balancers (addresses, CIDR ranges or `loopback`) whose X-Forwarded-For is believed
   * (TRUST_PROXY); unset: none, and the connection's address is the client's.
   */
  trustProxy?: string[];
}

/** proxy-addr's names of address ranges, besides addresses and CIDR ranges. */
const PROXY_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);

/** TRUST_PROXY as a list; anything that would believe every client (`true`, `*`) is refused. */
export function trustedProxies(text: string): string[] {
  const entries = text
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address, bits, extra] = entry.split("/");
    const isRange = PROXY_RANGES.has(entry);
    const isAddress =
      address !== undefined &&
      isIP(address) !== 0 &&
      extra === undefined &&
      (bits === undefined || /^\d{1,3}$/.test(bits));
    if (!isRange && !isAddress)
      throw new ConfigError(
        `TRUST_PROXY must list the balancers' addresses or CIDR ranges (or loopback) separated by commas: ${entry}`,
      );
  }
  return entries;
}

const DEFAULT_CONSOLE_DIST = fileURLToPath(new URL("../../console/dist/", import.meta.url));

export class ConfigError extends Error {}

/**
 * GATEWAY_PRICED_ACCOUNTS: how many priced accounts a gateway process remembers as it last wrote
 * them (money/priced-accounts.ts), read by the server's embedded gateway and `npm run gateway`.
 */
export function pricedAccountsSetting(env: NodeJS.ProcessEnv): number {
  const text = env.GATEWAY_PRICED_ACCOUNTS?.trim();
  if (!text) return DEFAULT_PRICED_ACCOUNTS;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value))
    throw new ConfigError(
      `GATEWAY_PRICED_ACCOUNTS must be a whole number ≥ 0: ${env.GATEWAY_PRICED_ACCOUNTS}`,
    );
  return value;
}

const truthy = (value: string | undefined) => value !== undefined && /^(1|true|on|yes)$/i.test(value);

export interface LoadOptions {
  /**
   * "now" (the default): weak secrets are refused here. "later": only their presence and length are
   * checked here; the caller judges their strength (`weakSecretProblem`, a few hundred ms of CPU)
   * itself, e.g. on another thread while the server starts, and must not store anything derived
   * from them (administrator, client secret, re-encrypted data) nor listen before it has passed.
   */
  secretStrength?: "now" | "later";
}

/**
 * Reads the environment. Production (NODE_ENV=production or a DATABASE_URL) must name its secrets;
 * the embedded default generates a signing key and a data-encryption key once and keeps them in
 * DATA_DIR.
 */
export async function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  { secretStrength = "now" }: LoadOptions = {},
): Promise<ServerConfig> {
  const dataDir = path.resolve(env.DATA_DIR ?? "data");
  const databaseUrl = env.DATABASE_URL || undefined;
  const production = env.NODE_ENV === "production" || databaseUrl !== undefined;
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`PORT is not a port: ${env.PORT}`);

  let jwtSecret = env.JWT_SECRET || undefined;
  let dataKey = env.DATA_ENCRYPTION_KEY || undefined;
  let adminPassword = env.ADMIN_PASSWORD;
  const clientSecret = env.CLIENT_SECRET || undefined;
  if (production) {
    const missing = [
      !jwtSecret && "JWT_SECRET",
      !dataKey && "DATA_ENCRYPTION_KEY",
      !adminPassword && "ADMIN_PASSWORD",
      !clientSecret && "CLIENT_SECRET",
    ].filter(Boolean) as string[];
    if (missing.length) {
      const names =
        missing.length > 1 ? `${missing.slice(0, -1).join(", ")} and ${missing.at(-1)}` : missing[0];
      throw new ConfigError(`Production mode needs ${names}; refusing to start with defaults.`);
    }
  } else {
    const embedded = await embeddedSecrets(dataDir);
    jwtSecret ??= embedded.jwtSecret;
    dataKey ??= embedded.dataKey;
    adminPassword ??= "admin";
  }
  if (jwtSecret!.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(`JWT_SECRET must be at least ${MIN_SECRET_LENGTH} characters.`);
  }
  if (dataKey!.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(`DATA_ENCRYPTION_KEY must be at least ${MIN_SECRET_LENGTH} characters.`);
  }
  // One key for both would make rotating the signing secret a rotation of stored secrets too.
  if (dataKey === jwtSecret) throw new ConfigError("DATA_ENCRYPTION_KEY must differ from JWT_SECRET.");
  if (secretStrength === "now") {
    const weak = await weakSecretProblem({
      production,
      jwtSecret: jwtSecret!,
      dataKey: dataKey!,
      adminPassword: adminPassword!,
      clientSecret,
    });
    if (weak) throw new ConfigError(weak);
  }
  if (env.DATASOURCE_ALLOWED_HOSTS) {
    try {
      allowedEndpoints(env.DATASOURCE_ALLOWED_HOSTS, undefined);
    } catch {
      throw new ConfigError(
        `DATASOURCE_ALLOWED_HOSTS must be host:port entries separated by commas: ${env.DATASOURCE_ALLOWED_HOSTS}`,
      );
    }
  }
  const previousDataKeys = (env.DATA_ENCRYPTION_KEY_PREVIOUS ?? "").split(",").filter(Boolean);
  const consoleDist = env.CONSOLE_DIST ?? DEFAULT_CONSOLE_DIST;
  const demoData = !production && (env.DEMO_DATA === undefined || truthy(env.DEMO_DATA));
  // The demo polls every minute so its screens move; a real site every 15 minutes by default.
  const pollIntervalSeconds = Number(env.POLL_INTERVAL_SECONDS ?? (demoData ? 60 : 900));
  if (!Number.isInteger(pollIntervalSeconds) || pollIntervalSeconds < 10)
    throw new ConfigError(`POLL_INTERVAL_SECONDS must be a whole number ≥ 10: ${env.POLL_INTERVAL_SECONDS}`);
  const demoNbiotWakeSeconds = Number(env.DEMO_NBIOT_WAKE_SECONDS ?? 180);
  if (!Number.isInteger(demoNbiotWakeSeconds) || demoNbiotWakeSeconds < 3)
    throw new ConfigError(
      `DEMO_NBIOT_WAKE_SECONDS must be a whole number ≥ 3: ${env.DEMO_NBIOT_WAKE_SECONDS}`,
    );
  return {
    host: env.HOST ?? "127.0.0.1",
    port,
    dataDir,
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(env.DATASOURCE_ALLOWED_HOSTS ? { datasourceAllowedHosts: env.DATASOURCE_ALLOWED_HOSTS } : {}),
    ...(env.TRUST_PROXY ? { trustProxy: trustedProxies(env.TRUST_PROXY) } : {}),
    production,
    jwtSecret: jwtSecret!,
    dataKey: dataKey!,
    previousDataKeys,
    adminPassword: adminPassword!,
    ...(clientSecret ? { clientSecret } : {}),
    captchaEnabled: truthy(env.CAPTCHA_ENABLED),
    demoData,
    gatewayEmbedded: env.GATEWAY_EMBEDDED === undefined ? !production : truthy(env.GATEWAY_EMBEDDED),
    pollIntervalSeconds,
    pricedAccounts: pricedAccountsSetting(env),
    demoNbiotWakeSeconds,
    consoleDist,
    logLevel: env.LOG_LEVEL ?? "info",
    timeZone: env.TZ_DEFAULT ?? "Asia/Shanghai",
    apiLog: apiLogPolicy(env),
  };
}

const API_LOG_KINDS = ["writes", "errors", "slow", "all"] as const;

/** API_LOG: `writes,errors,slow` (the default), any of those, `all`, or `none`; then its numbers. */
function apiLogPolicy(env: NodeJS.ProcessEnv): ApiLogPolicy {
  const text = (env.API_LOG ?? "writes,errors,slow").trim().toLowerCase();
  const kinds = text === "none" ? [] : text.split(",").map((k) => k.trim());
  const unknown = kinds.filter((k) => !(API_LOG_KINDS as readonly string[]).includes(k));
  if (unknown.length) {
    throw new ConfigError(`API_LOG takes writes, errors, slow, all or none: ${unknown.join(", ")}`);
  }
  const whole = (name: string, fallback: number, min: number) => {
    const value = Number(env[name] ?? fallback);
    if (!Number.isInteger(value) || value < min)
      throw new ConfigError(`${name} must be a whole number ≥ ${min}: ${env[name]}`);
    return value;
  };
  return {
    writes: kinds.includes("writes"),
    errors: kinds.includes("errors"),
    slow: kinds.includes("slow"),
    all: kinds.includes("all"),
    slowMs: whole("API_LOG_SLOW_MS", DEFAULT_API_LOG.slowMs, 0),
    bufferRows: whole("API_LOG_BUFFER", DEFAULT_API_LOG.bufferRows, 1),
    flushMs: whole("API_LOG_FLUSH_MS", DEFAULT_API_LOG.flushMs, 10),
  };
}

/**
 * The embedded demo's signing key and data-encryption key: generated on first start (the data key
 * also on the first start of an older data directory), kept with the data they protect.
 */
async function embeddedSecrets(dataDir: string): Promise<{ jwtSecret: string; dataKey: string }> {
  const file = path.join(dataDir, "secrets.json");
  let stored: { jwtSecret?: string; dataKey?: string } = {};
  try {
    stored = JSON.parse(await readFile(file, "utf8")) as typeof stored;
  } catch {
    // first start: create them below
  }
  if (stored.jwtSecret && stored.dataKey) return { jwtSecret: stored.jwtSecret, dataKey: stored.dataKey };
  const secrets = {
    jwtSecret: stored.jwtSecret ?? randomBytes(48).toString("base64url"),
    dataKey: stored.dataKey ?? randomBytes(48).toString("base64url"),
  };
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
