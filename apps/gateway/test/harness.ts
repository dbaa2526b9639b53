import {
  type GatewayHandle,
  type GatewaySettings,
  type LeaseStore,
  MemoryCommandQueue,
  MemoryMeterDirectory,
  MemoryReadingsSink,
  silentLogger,
  startGateway,
} from "@meterline/gateway";
import {
  type FleetHandle,
  type FleetOptions,
  fleetCollectors,
  fleetDirectory,
  planFleet,
  startFleet,
} from "@meterline/simulator";

/** Short timings for tests on loopback: outcomes are asserted, never durations. */
export const FAST: Partial<GatewaySettings> = {
  host: "127.0.0.1",
  port: 0,
  requestTimeoutMs: 150,
  quietAfterTimeoutMs: 120,
  readRetries: 1,
  valveSettleMs: 60,
  firstPollDelayMs: 60_000,
  registrationTimeoutMs: 300,
  heartbeatIntervalMs: 200,
  missedHeartbeats: 3,
  interByteTimeoutMs: 100,
  leaseTtlMs: 1_000,
  commandClaimIntervalMs: 200,
};

export interface Rig {
  gateway: GatewayHandle;
  fleet: FleetHandle;
  directory: MemoryMeterDirectory;
  commands: MemoryCommandQueue;
  readings: MemoryReadingsSink;
  close(): Promise<void>;
}

export async function startRig(
  fleetOptions: FleetOptions,
  settings: Partial<GatewaySettings> = {},
  extra: { leases?: LeaseStore } = {},
): Promise<Rig> {
  const plan = planFleet(fleetOptions);
  const directory = new MemoryMeterDirectory(fleetDirectory(plan), fleetCollectors(plan));
  const commands = new MemoryCommandQueue((meterId) => directory.collectorOf(meterId));
  const readings = new MemoryReadingsSink();
  const gateway = await startGateway({
    directory,
    commands,
    readings,
    leases: extra.leases,
    logger: silentLogger,
    settings: { ...FAST, ...settings },
  });
  const fleet = await startFleet({
    replyDelayMs: 5,
    lateReplyMs: 220,
    heartbeatIntervalMs: 200,
    reconnectDelayMs: 50,
    valveTravelMs: 30,
    ...fleetOptions,
    gateway: gateway.address(),
  });
  await waitUntil(
    () => gateway.stats().collectorsOnline === fleet.plan.dtuIds.length + fleet.plan.dialInIds.length,
    5_000,
    "all DTUs online",
  );
  return {
    gateway,
    fleet,
    directory,
    commands,
    readings,
    close: async () => {
      await fleet.close();
      await gateway.close();
    },
  };
}

export async function waitUntil(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
