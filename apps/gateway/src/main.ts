import { watchFile } from "node:fs";
import { parseArgs } from "node:util";
import { GatewayConfigError, resolveSettings, settingsFromEnv } from "./config.ts";
import { startGateway } from "./gateway.ts";
import { LeaseSetupError, PgLeaseStore } from "./lease/pg-lease-store.ts";
import { consoleLogger } from "./log.ts";
import { MemoryCommandQueue } from "./memory/command-queue.ts";
import { DirectoryFileError, loadDirectoryFile } from "./memory/directory-file.ts";
import { MemoryMeterDirectory } from "./memory/meter-directory.ts";
import { MemoryReadingsSink } from "./memory/readings-sink.ts";
import type { LeaseStore, LogLevel } from "./ports.ts";

const USAGE = `npm run gateway -- [options]

Runs the meter gateway as its own process.
  --port N            TCP port for DTUs (GATEWAY_PORT, default 9645)
  --host H            listen address (GATEWAY_HOST, default 0.0.0.0)
  --directory FILE    meter directory as JSON, reloaded when the file changes:
                      {"collectors": [{"id", "secret", "allowedNetworks"?: ["10.0.0.0/8"]}], "meters": [MeterInfo]}
                      DTUs register with GATEWAY_REGISTRATION (default "REG:{id},{secret}\\n") and are
                      refused without their collector's secret
  --mqtt URL          MQTT broker for 4G meters (MQTT_URL; off when unset)
  --stats-every S     print a stats line every S seconds (default 10; 0 = never)
  --log-level L       debug | info | warn | error (default info)
DATABASE_URL set: collector leases live in PostgreSQL (table gateway_lease, created by the server's migrations), so several
gateway processes can share the DTUs. Other settings: GATEWAY_* variables (see config.ts).`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string" },
      directory: { type: "string" },
      mqtt: { type: "string" },
      "stats-every": { type: "string", default: "10" },
      "log-level": { type: "string", default: "info" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const logger = consoleLogger(values["log-level"] as LogLevel);
  const settings = resolveSettings({
    ...settingsFromEnv(),
    ...(values.port ? { port: Number(values.port) } : {}),
    ...(values.host ? { host: values.host } : {}),
    ...(values.mqtt ? { mqttUrl: values.mqtt } : {}),
  });
  const directory = new MemoryMeterDirectory();
  const path = values.directory;
  if (path) {
    const reload = () =>
      loadDirectoryFile(path).then(
        ({ meters, collectors }) => {
          directory.replace(meters, collectors);
          logger.log("info", "meter directory loaded", {
            path,
            meters: meters.length,
            collectors: collectors.length,
          });
        },
        (error: Error) => logger.log("warn", "meter directory not loaded", { path, error: error.message }),
      );
    await reload();
    watchFile(path, { interval: 2000 }, () => void reload());
  } else logger.log("warn", "no --directory given: every DTU will be refused as unknown");

  const leases: LeaseStore | undefined = process.env.DATABASE_URL
    ? await PgLeaseStore.connect(process.env.DATABASE_URL)
    : undefined;
  const commands = new MemoryCommandQueue((meterId) => directory.collectorOf(meterId));
  const gateway = await startGateway({
    directory,
    commands,
    readings: new MemoryReadingsSink(),
    leases,
    logger,
    settings,
  });

  const every = Number(values["stats-every"]) * 1000;
  const timer = every > 0 ? setInterval(() => logStats(), every) : undefined;
  function logStats() {
    const s = gateway.stats();
    logger.log("info", "stats", {
      collectors: s.collectorsOnline,
      meters: s.metersOnline,
      polls: s.pollsCompleted,
      pollsFailed: s.pollsFailed,
      requests: s.requests,
      timeouts: s.timeouts,
      rejected: s.rejected,
    });
  }
  const shutdown = async () => {
    clearInterval(timer);
    await gateway.close();
    await leases?.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
}

main().catch((error: unknown) => {
  // Configuration and setup problems are told in one line; anything else with its stack.
  const known =
    error instanceof GatewayConfigError ||
    error instanceof DirectoryFileError ||
    error instanceof LeaseSetupError;
  console.error(known ? `gateway: ${error.message}` : error);
  process.exit(1);
});
