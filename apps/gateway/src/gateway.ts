import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { CommandPump } from "./command-pump.ts";
import { ConcentratorLink } from "./concentrator/link.ts";
import { concentratorPassword } from "./concentrator/login.ts";
import { type GatewaySettings, resolveSettings } from "./config.ts";
import { dialInRefusalOf, refusalOf } from "./dtu/authenticate.ts";
import type { DtuConnection } from "./dtu/connection.ts";
import { DtuListener } from "./dtu/listener.ts";
import { LeaseBalancer } from "./lease/balancer.ts";
import { LeaseKeeper } from "./lease/lease-keeper.ts";
import { MemoryLeaseStore } from "./lease/memory-lease-store.ts";
import { consoleLogger, RateLimitedLog } from "./log.ts";
import { MemoryCommandQueue } from "./memory/command-queue.ts";
import { MemoryReadingsSink } from "./memory/readings-sink.ts";
import { RedialBackoff } from "./modbus/redial-backoff.ts";
import { ModbusTcpCollectors } from "./modbus/tcp-collectors.ts";
import { connectMqtt, type MqttClientPort } from "./mqtt/client.ts";
import { MqttHub } from "./mqtt/hub.ts";
import { MqttCollectors } from "./mqtt/mqtt-collectors.ts";
import type { CommandSource, LeaseStore, Logger, MeterDirectory, ReadingsSink } from "./ports.ts";
import { CollectorRegistry } from "./registry.ts";
import { bump, type GatewayStats, newCounters } from "./stats.ts";

/**
 * How long a stopping gateway lets each collector's exchange under way finish before it closes
 * the sessions: a meter's reply takes well under a second, and every ms here delays the hand-over.
 */
const DRAIN_MS = 1_000;

export interface GatewayOptions {
  directory: MeterDirectory;
  /** Defaults to an in-memory queue that nothing feeds (poll-only). */
  commands?: CommandSource;
  /** Defaults to an in-memory sink. */
  readings?: ReadingsSink;
  /** Defaults to in-memory leases (one gateway process). */
  leases?: LeaseStore;
  logger?: Logger;
  settings?: Partial<GatewaySettings>;
  /** Lease owner id; unique per process by default. */
  owner?: string;
  /** An MQTT client to use instead of connecting to settings.mqttUrl (tests). */
  mqttClient?: MqttClientPort;
}

export interface GatewayHandle {
  readonly owner: string;
  readonly settings: GatewaySettings;
  /** The TCP listener's address (the port, when 0 was asked for). */
  address(): { host: string; port: number };
  stats(): GatewayStats;
  /** Poll these meters (all when omitted) as soon as their bus is free; returns how many were found. */
  pollNow(meterIds?: readonly string[]): number;
  /** Collector ids online on this gateway. */
  collectors(): string[];
  close(): Promise<void>;
}

/**
 * Starts the meter gateway: the TCP listener for DTUs and concentrators, MQTT for 4G meters when
 * configured, the command pump and the lease keeper. Runs inside the server process (embedded
 * default) or alone (main.ts).
 */
export async function startGateway(options: GatewayOptions): Promise<GatewayHandle> {
  const settings = resolveSettings(options.settings);
  const logger = options.logger ?? consoleLogger();
  const owner = options.owner ?? `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const counters = newCounters();
  const directory = options.directory;
  const source = options.commands ?? new MemoryCommandQueue(() => undefined);
  const sink = options.readings ?? new MemoryReadingsSink();
  const leases = options.leases ?? new MemoryLeaseStore();
  const rateLimited = new RateLimitedLog(logger);

  let pump: CommandPump | undefined;
  let balancer: LeaseBalancer | undefined;
  const registry = new CollectorRegistry({
    settings,
    source,
    sink,
    counters,
    logger,
    leases,
    owner,
    onOnline: () => pump?.kick(),
    holdOff: (collectorId) => balancer?.holdOff(collectorId),
  });
  pump = new CommandPump(source, registry, owner, settings.commandClaimIntervalMs, logger);
  balancer = new LeaseBalancer(leases, owner, settings, registry, logger);

  const onRegistered = async (connection: DtuConnection) => {
    const id = connection.collectorId;
    try {
      const meters = await directory.metersOf(id);
      if (meters.length === 0 && settings.rejectUnknownCollectors) {
        bump(counters.rejected, "unknown collector");
        rateLimited.log("unknown-collector", "warn", "unknown DTU id, disconnected", {
          collector: id,
          ip: connection.ip,
        });
        connection.close("unknown collector");
        return;
      }
      const login = connection.concentratorLogin;
      const link = login
        ? new ConcentratorLink(connection, login, {
            settings,
            counters,
            logger,
            // Reported, never awaited: the operators' copy of the file must not hold up polling.
            onFile: (collectorId, rows) =>
              void sink
                .meterFile?.({ collectorId, rows: [...rows], at: new Date() })
                ?.catch((error: unknown) =>
                  logger.log("warn", "meter file not reported", {
                    collector: collectorId,
                    error: String(error),
                  }),
                ),
          })
        : connection;
      if (await registry.attach(link, meters))
        logger.log("debug", "collector online", { collector: id, meters: meters.length });
    } catch (error) {
      logger.log("error", "could not bring collector online", { collector: id, error: String(error) });
      connection.close("registration failed");
    }
  };
  const listener = new DtuListener(
    settings,
    counters,
    rateLimited,
    async (connection, secret) => {
      const credentials = await directory.credentialsOf(connection.collectorId);
      if (connection.concentratorLogin) {
        // The login's 16-byte password against the collector's secret read as a 1376.1 password.
        if (credentials?.secret && !concentratorPassword(credentials.secret))
          return "secret unusable as a 1376.1 password";
        const expected = credentials && { ...credentials, secret: concentratorPassword(credentials.secret) };
        return refusalOf(expected, connection.ip, secret);
      }
      return connection.dialIn
        ? dialInRefusalOf(credentials, connection.ip)
        : refusalOf(credentials, connection.ip, secret);
    },
    (connection) => void onRegistered(connection),
  );

  let mqtt: { hub: MqttHub; collectors: MqttCollectors; ownClient: boolean } | undefined;
  if (options.mqttClient || settings.mqttUrl) {
    const client =
      options.mqttClient ??
      (await connectMqtt(settings.mqttUrl!, { clientId: `gateway-${owner}`.slice(0, 64) }));
    const hub = new MqttHub(client, settings.mqttTopicPrefix, settings.maxFrameLength, counters);
    await hub.start();
    mqtt = {
      hub,
      collectors: new MqttCollectors(hub, directory, registry, logger),
      ownClient: !options.mqttClient,
    };
  }

  const modbusTcp = new ModbusTcpCollectors(
    directory,
    registry,
    counters,
    logger,
    settings.requestTimeoutMs * 10,
    // An endpoint that does not answer is dialled again after one request timeout, then less often.
    new RedialBackoff(settings.requestTimeoutMs, 60_000),
  );

  const failed = (what: string) => (error: unknown) => logger.log("error", what, { error: String(error) });
  const unsubscribeDirectory = directory.onChange?.((collectorId) => {
    const collector = registry.get(collectorId);
    if (mqtt && collector?.link.transport !== "tcp")
      mqtt.collectors.sync().catch(failed("MQTT collector sync failed"));
    modbusTcp.sync().catch(failed("Modbus TCP collector sync failed"));
    if (collector?.link.transport !== "tcp") return;
    directory
      .metersOf(collectorId)
      .then((meters) => {
        if (meters.length === 0 && settings.rejectUnknownCollectors)
          return collector.stop("removed from the directory");
        registry.refresh(collectorId, meters);
      })
      .catch(failed("directory refresh failed"));
  });

  const keeper = new LeaseKeeper(
    leases,
    owner,
    settings.leaseTtlMs,
    () => registry.ids(),
    (lost) => {
      for (const id of lost)
        registry.get(id)?.stop("lease lost").catch(failed("stopping a collector failed"));
    },
    logger,
    async () => {
      // Dialling an endpoint that does not answer must not hold the lease tick up.
      modbusTcp.sync().catch(failed("Modbus TCP collector sync failed"));
      await mqtt?.collectors.sync();
    },
  );

  await listener.listen();
  // A DTU that proved itself at another gateway is its newest session: drop the one here.
  const stopHearingTakeovers = await leases
    .onReleaseRequested?.(owner, (collectorId) => {
      registry
        .handOver(collectorId, "taken over by another gateway")
        .catch(failed("handing a collector over failed"));
    })
    .catch(async (error: unknown) => {
      await listener.close();
      throw error;
    });
  pump.start();
  keeper.start();
  balancer.start();
  await mqtt?.collectors.sync();
  modbusTcp.sync().catch(failed("Modbus TCP collector sync failed"));
  logger.log("info", "gateway listening", { ...listener.address(), owner, mqtt: mqtt !== undefined });

  let closing: Promise<void> | undefined;
  return {
    owner,
    settings,
    address: () => listener.address(),
    collectors: () => registry.ids(),
    pollNow: (meterIds) => registry.all().reduce((sum, collector) => sum + collector.pollNow(meterIds), 0),
    stats: () => ({
      ...structuredClone(counters),
      connections: listener.counts(),
      collectorsOnline: registry.ids().length,
      metersOnline: registry.meterCount,
      commandsInFlight: registry.all().reduce((sum, collector) => sum + collector.inFlightCommands, 0),
      pendingReconciliations: registry.pendingReconciliations,
    }),
    close: () => {
      closing ??= (async () => {
        pump?.stop();
        keeper.stop();
        await balancer?.stop();
        await stopHearingTakeovers?.();
        unsubscribeDirectory?.();
        // The DTUs stay connected until each exchange under way has its reply (a command on the
        // wire is not left for a read-back), bounded so that the hand-over stays short.
        listener.stopAccepting();
        await registry.drainAll(DRAIN_MS);
        await listener.close();
        await registry.stopAll("gateway closing");
        if (mqtt?.ownClient) await mqtt.hub.client.end();
        if (!options.leases) await leases.close();
      })();
      return closing;
    },
  };
}
