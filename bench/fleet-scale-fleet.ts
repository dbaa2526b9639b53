/**
 * The simulated fleet of the fleet-scale bench, in a process of its own (its CPU and memory are its
 * own figures): one plan, its DTUs split between the gateways (DTU i dials gateway i mod n). Talks to
 * the bench over IPC:
 *   → "quiesce": the meters stop answering (the DTUs stay connected); after the longest reply delay
 *     every answered read has been delivered, and the per-meter count of answered readings (energy
 *     block reads) comes back as "answered".
 *   → "close": the DTUs hang up and the process ends.
 * Started with FLEET_OPTIONS (JSON: plan options, gateways, reply delay).
 */
import { type FleetOptions, startFleet } from "@meterline/simulator";

type Message = { type: string; [key: string]: unknown };
const send = (message: Message) => process.send?.(message);

const options = JSON.parse(process.env.FLEET_OPTIONS ?? "{}") as FleetOptions;
const started = performance.now();
const fleet = await startFleet({ ...options, connectConcurrency: 200 });
send({ type: "ready", ms: performance.now() - started, online: fleet.stats().dtusOnline });

process.on("message", async (message: Message) => {
  if (message.type === "quiesce") {
    fleet.quiesce();
    // Replies already due go out after the reply delay: wait it out, and a margin for the writes.
    await new Promise((resolve) => setTimeout(resolve, (options.replyDelayMs ?? 50) + 500));
    const addresses: string[] = [];
    const counts: number[] = [];
    for (const meter of fleet.meters()) {
      if (meter.kind !== "electric") continue;
      addresses.push(meter.address);
      counts.push(meter.counters.energyReads);
    }
    const stats = fleet.stats();
    send({ type: "answered", addresses, counts, requests: stats.requests, replies: stats.replies });
  }
  if (message.type === "close") {
    await fleet.close();
    process.exit(0);
  }
});
