import { readFile, stat, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { MAX_PLAN_BYTES, parseAnomalyPlan } from "./anomalies.ts";
import { type MeterConditions, parseConditionArg } from "./conditions.ts";
import type { MeterAnomaly } from "./electric-meter.ts";
import { type Fault, type FaultRates, isFault } from "./faults.ts";
import { startFleet } from "./fleet.ts";
import { ModbusMeter, simulatorCatalogue } from "./modbus-meter.ts";
import { startModbusTcpServer } from "./modbus-tcp-server.ts";
import { fleetCollectors, fleetDirectory, planFleet } from "./plan.ts";

const USAGE = `npm run simulate -- --meters N --gateway host:port [options]

Starts N simulated meters behind M simulated DTUs that dial the gateway over TCP.
  --meters N              meters (default 100)
  --dtus M                DTUs, each one RS-485 bus (default meters/10)
  --water-ratio R         share of CJ/T 188 water meters (default 0.3)
  --prepaid-ratio R       share of electricity meters with local prepaid registers (default 0.5)
  --dlt698-ratio R        share of electricity meters speaking DL/T 698.45 (default 0)
  --modbus-meters N       Modbus-RTU DIN-rail meters added on the DTUs' buses, slaves 1, 2, … (default 0)
  --modbus-models A,B     their catalogue models, taken in turn (default ddsy1352,sdm120,dtsu666)
  --modbus-tcp HOST:PORT  also serve Modbus TCP meters there (a Modbus TCP gateway in front of them,
                          units 1, 2, …), models from --modbus-models in turn; port 0 picks one
  --modbus-tcp-meters N   how many (default 2)
  --concentrators         the M collectors are Q/GDW 1376.1 concentrators (area 3401, terminals 1..M,
                          meters on carrier port 31) instead of transparent DTUs
  --carrier-delay-ms A-B  each carrier crossing of a concentrator takes A..B ms (default 300-2000)
  --carrier-drop R        share of forwarded frames a concentrator's carrier loses (default 0)
  --event-scan-ms S       how often a concentrator looks for cover openings and relay changes to
                          report (AFN 0E; default 1000, 0 = never)
  --gateway HOST:PORT     the gateway's DTU port (default 127.0.0.1:9645)
  --mqtt URL              broker for 4G meters; with --mqtt-meters K (default 10) the last K meters use it
  --reply-delay-ms D      meter reply delay on the bus (default 50)
  --late-reply-ms D       delay of a late reply (default 10000)
  --fault NAME=RATE       fault rate per request, repeatable; NAME one of ignore, noReply, lateReply,
                          duplicateReply, badChecksum, errorReply, disconnect
  --condition ADDR:NAME[=V]  a meter-side condition of one meter, repeatable; NAME one of coverOpen,
                          reverseEnergy, batteryLow, relayFault, overPower, valveFault (=false clears)
                          or clockDriftMinutes=M
  --clock-drift-ratio R   share of meters with a drifting clock (default 0)
  --rollover-ratio R      share of meters about to roll their registers over (default 0)
  --anomalies FILE        an anomaly plan (JSON, see anomalies.ts) whose targets are meter addresses:
                          under-registering, tamper and relay-bypass act on electricity meters, leak
                          on water meters (node kinds and mis-mapping need nodes: bench:analytics)
  --seed S                makes the fleet and its faults repeatable (default "meterline")
  --time-scale X          simulated time runs X times faster (default 1)
  --heartbeat-interval-ms I   DTU heartbeat interval (default 60000)
  --registration T / --heartbeat T   packet templates (default "REG:{id},{secret}\\n" / "HB\\n")
  --write-directory FILE  write the gateway's directory (JSON: the DTUs with their secrets, which are
                          derived from --seed, and the meters) for --directory of the gateway
  --poll-interval-ms P    poll interval written into the directory (default 60000)
  --stats-every S         print fleet stats every S seconds (default 10; 0 = never)`;

function ratio(text: string | undefined, fallback: number, name: string): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!(value >= 0 && value <= 1)) throw new Error(`--${name} must be within 0..1`);
  return value;
}

function whole(text: string | undefined, fallback: number, name: string): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number`);
  return value;
}

/** The plan file's anomalies a simulated meter can carry, by address; the others are named and left out. */
async function meterAnomalies(file: string): Promise<Record<string, MeterAnomaly>> {
  if ((await stat(file)).size > MAX_PLAN_BYTES)
    throw new Error(`--anomalies: larger than ${MAX_PLAN_BYTES} bytes`);
  const plan = parseAnomalyPlan(await readFile(file, "utf8"));
  const byAddress: Record<string, MeterAnomaly> = {};
  for (const { kind, target, start, magnitude } of plan.anomalies) {
    if (kind === "node-leak" || kind === "faulty-master" || kind === "mis-mapped")
      console.error(`--anomalies: ${kind} on ${target} needs nodes, which the fleet does not have: left out`);
    else byAddress[target] = { kind, start, magnitude };
  }
  return byAddress;
}

/** A comma-separated list of catalogue models, each checked against the catalogue. */
function modbusModels(text: string): string[] {
  const names = text
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  const catalogue = simulatorCatalogue();
  for (const name of names)
    if (!catalogue.has(name))
      throw new Error(
        `--modbus-models: no model "${name}" in the catalogue (${[...catalogue.keys()].join(", ")})`,
      );
  return names;
}

const DEFAULT_TCP_MODELS = ["ddsy1352", "sdm630"];

/** Modbus TCP meters on one endpoint, units 1..count, their models taken in turn. */
async function serveModbusTcp(endpoint: string, count: number, models: readonly string[]) {
  const [host = "127.0.0.1", port = "502"] = endpoint.split(":");
  const units = Array.from({ length: count }, (_, i) => ({
    meter: new ModbusMeter({
      id: `meter-mbtcp-${i + 1}`,
      slave: i + 1,
      modelName: models[i % models.length]!,
      meanRate: 500 + 250 * i,
      startKwh: 100 + 10 * i,
    }),
  }));
  const server = await startModbusTcpServer(units, { host, port: whole(port, 502, "modbus-tcp port") });
  const bound = server.address();
  const list = units.map(({ meter }) => `${meter.config.slave}=${meter.config.modelName}`).join(", ");
  console.error(`Modbus TCP meters at ${bound.host}:${bound.port} (units ${list})`);
  return server;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      meters: { type: "string" },
      dtus: { type: "string" },
      "water-ratio": { type: "string" },
      "prepaid-ratio": { type: "string" },
      "dlt698-ratio": { type: "string" },
      "modbus-meters": { type: "string" },
      "modbus-models": { type: "string" },
      "modbus-tcp": { type: "string" },
      "modbus-tcp-meters": { type: "string" },
      concentrators: { type: "boolean", default: false },
      "carrier-delay-ms": { type: "string" },
      "carrier-drop": { type: "string" },
      "event-scan-ms": { type: "string" },
      gateway: { type: "string", default: "127.0.0.1:9645" },
      mqtt: { type: "string" },
      "mqtt-meters": { type: "string" },
      "reply-delay-ms": { type: "string" },
      "late-reply-ms": { type: "string" },
      fault: { type: "string", multiple: true, default: [] },
      condition: { type: "string", multiple: true, default: [] },
      "clock-drift-ratio": { type: "string" },
      "rollover-ratio": { type: "string" },
      seed: { type: "string", default: "meterline" },
      anomalies: { type: "string" },
      "time-scale": { type: "string", default: "1" },
      "heartbeat-interval-ms": { type: "string" },
      registration: { type: "string" },
      heartbeat: { type: "string" },
      "write-directory": { type: "string" },
      "poll-interval-ms": { type: "string" },
      "stats-every": { type: "string", default: "10" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) return console.log(USAGE);
  const meters = whole(values.meters, 100, "meters");
  const faults: FaultRates = {};
  for (const item of values.fault) {
    const [name = "", rate = ""] = item.split("=");
    if (!isFault(name)) throw new Error(`unknown fault "${name}"`);
    faults[name as Fault] = ratio(rate, 0, "fault");
  }
  const conditions: Record<string, MeterConditions> = {};
  for (const item of values.condition) {
    const { address, change } = parseConditionArg(item);
    conditions[address] = { ...conditions[address], ...change };
  }
  const anomalies = values.anomalies ? await meterAnomalies(values.anomalies) : undefined;
  const [host = "127.0.0.1", port = "9645"] = values.gateway.split(":");
  const [minDelay, maxDelay] = (values["carrier-delay-ms"] ?? "300-2000").split("-");
  const carrier = {
    minDelayMs: whole(minDelay, 300, "carrier-delay-ms"),
    maxDelayMs: whole(maxDelay, 2_000, "carrier-delay-ms"),
    dropRate: ratio(values["carrier-drop"], 0, "carrier-drop"),
    eventScanMs: whole(values["event-scan-ms"], 1_000, "event-scan-ms"),
  };
  if (carrier.maxDelayMs < carrier.minDelayMs) throw new Error("--carrier-delay-ms is MIN-MAX");
  const options = {
    meters,
    dtus: whole(values.dtus, Math.max(1, Math.ceil(meters / 10)), "dtus"),
    waterRatio: ratio(values["water-ratio"], 0.3, "water-ratio"),
    prepaidRatio: ratio(values["prepaid-ratio"], 0.5, "prepaid-ratio"),
    dlt698Ratio: ratio(values["dlt698-ratio"], 0, "dlt698-ratio"),
    modbusMeters: whole(values["modbus-meters"], 0, "modbus-meters"),
    ...(values["modbus-models"] ? { modbusModels: modbusModels(values["modbus-models"]) } : {}),
    concentrators: values.concentrators,
    mqttMeters: values.mqtt ? Math.min(meters, whole(values["mqtt-meters"], 10, "mqtt-meters")) : 0,
    clockDriftRatio: ratio(values["clock-drift-ratio"], 0, "clock-drift-ratio"),
    rolloverRatio: ratio(values["rollover-ratio"], 0, "rollover-ratio"),
    pollIntervalMs: whole(values["poll-interval-ms"], 60_000, "poll-interval-ms"),
    seed: values.seed,
  };
  if (values["write-directory"]) {
    const plan = planFleet(options);
    const directory = { collectors: fleetCollectors(plan), meters: fleetDirectory(plan) };
    await writeFile(values["write-directory"], `${JSON.stringify(directory, null, 2)}\n`);
    console.error(
      `wrote ${directory.collectors.length} DTUs and ${directory.meters.length} meters to ${values["write-directory"]}`,
    );
  }
  const fleet = await startFleet({
    ...options,
    gateway: { host, port: whole(port, 9645, "gateway port") },
    mqttUrl: values.mqtt,
    replyDelayMs: whole(values["reply-delay-ms"], 50, "reply-delay-ms"),
    lateReplyMs: whole(values["late-reply-ms"], 10_000, "late-reply-ms"),
    faults,
    carrier,
    conditions,
    anomalies,
    timeScale: Number(values["time-scale"]),
    heartbeatIntervalMs: values["heartbeat-interval-ms"]
      ? whole(values["heartbeat-interval-ms"], 60_000, "heartbeat-interval-ms")
      : undefined,
    registration: values.registration,
    heartbeat: values.heartbeat,
  });
  const tcpServer = values["modbus-tcp"]
    ? await serveModbusTcp(
        values["modbus-tcp"],
        whole(values["modbus-tcp-meters"], 2, "modbus-tcp-meters"),
        options.modbusModels ?? DEFAULT_TCP_MODELS,
      )
    : undefined;
  const every = Number(values["stats-every"]) * 1000;
  const print = () => console.error(JSON.stringify({ time: new Date().toISOString(), ...fleet.stats() }));
  print();
  const timer = every > 0 ? setInterval(print, every) : undefined;
  const shutdown = async () => {
    clearInterval(timer);
    await tcpServer?.close();
    await fleet.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
}

main().catch((error: unknown) => {
  console.error(`simulate: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
