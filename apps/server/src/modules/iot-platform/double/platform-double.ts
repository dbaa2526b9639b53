import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { PlatformState } from "../platform-pushes.ts";
import type { SleepingWaterMeter } from "./sleeping-meter.ts";

/** A push as the double sends it to the application's webhook. */
export interface OutgoingPush {
  /** Path and query under the application's address. */
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** How the double reaches the webhook: fetch in the demo, the test server's inject in tests. */
export type PushTransport = (push: OutgoingPush) => Promise<number>;

/** A command the platform holds for a device until it wakes. */
export interface HeldCommand {
  id: string;
  deviceId: string;
  frame: Uint8Array;
  state: PlatformState;
  expiresAt: number;
}

export interface HttpAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * What the three platform doubles share: an HTTP API on a local port, devices (sleeping water
 * meters), the commands held for each device, and the wake that delivers them — the callbacks
 * (sent, delivered, executed or failed) and the report are pushed to the webhook, signed the
 * platform's way. A test may lose callbacks or push the last push again, as networks do.
 */
export abstract class PlatformDouble {
  private server: Server | undefined;
  readonly meters = new Map<string, SleepingWaterMeter>();
  readonly commands: HeldCommand[] = [];
  /** Every push sent, in order, with the webhook's answer. */
  readonly pushes: (OutgoingPush & { status: number })[] = [];
  /** Drops command state callbacks (the report still goes): a network that loses them. */
  loseCallbacks = false;
  /** API requests refused for their authentication, for tests to count. */
  refusedRequests = 0;

  constructor(protected readonly transport: PushTransport) {}

  abstract readonly platform: "ctwing" | "onenet" | "iotda";
  /** Answers an API request of the application (authentication checked by the platform's rules). */
  protected abstract handle(
    method: string,
    url: URL,
    headers: IncomingMessage["headers"],
    body: string,
  ): HttpAnswer;
  /** The signed push of a device's report frame. */
  protected abstract reportPush(meter: SleepingWaterMeter, frame: Uint8Array, at: Date): OutgoingPush;
  /** The signed push of a command's new state. */
  protected abstract statePush(command: HeldCommand, at: Date): OutgoingPush;

  async start(): Promise<string> {
    this.server = createServer((req, res) => this.serve(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    return this.url;
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo | null;
    if (!address) throw new Error("the double is not started");
    return `http://127.0.0.1:${address.port}`;
  }

  async stop() {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  addMeter(meter: SleepingWaterMeter) {
    this.meters.set(meter.deviceId, meter);
  }

  /** Holds a command for a device (the API's "create command"); its id. */
  protected hold(deviceId: string, frame: Uint8Array, ttlSeconds: number): HeldCommand {
    const command: HeldCommand = {
      id: randomUUID(),
      deviceId,
      frame,
      state: "queued",
      expiresAt: Date.now() + ttlSeconds * 1000,
    };
    this.commands.push(command);
    return command;
  }

  /**
   * The device wakes: it reports first (as it stands), then takes what was held for it — sent,
   * delivered, executed (or failed when it refuses the frame) pushed one by one. Expired commands
   * are pushed as expired and not delivered.
   */
  async wake(deviceId: string, now = new Date()): Promise<void> {
    const meter = this.meters.get(deviceId);
    if (!meter) throw new Error(`no device ${deviceId}`);
    await this.send(this.reportPush(meter, meter.reportFrame(now), now));
    for (const command of this.commands.filter((c) => c.deviceId === deviceId && c.state === "queued")) {
      if (command.expiresAt < now.getTime()) {
        await this.change(command, "expired", now);
        continue;
      }
      await this.change(command, "sent", now);
      await this.change(command, "delivered", now);
      await this.change(command, meter.execute(command.frame) ? "executed" : "failed", now);
    }
  }

  /** Sends the last push again, unchanged: a platform retrying a push it thinks was lost. */
  async repeatLastPush(): Promise<number> {
    const last = this.pushes.at(-1);
    if (!last) throw new Error("nothing pushed yet");
    return this.send({ path: last.path, headers: last.headers, body: last.body });
  }

  private async change(command: HeldCommand, state: PlatformState, at: Date) {
    command.state = state;
    if (!this.loseCallbacks) await this.send(this.statePush(command, at));
  }

  protected async send(push: OutgoingPush): Promise<number> {
    const status = await this.transport(push);
    this.pushes.push({ ...push, status });
    return status;
  }

  private serve(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      let answer: HttpAnswer;
      try {
        answer = this.handle(
          req.method ?? "GET",
          new URL(req.url ?? "/", this.url),
          req.headers,
          Buffer.concat(chunks).toString("utf8"),
        );
      } catch (error) {
        answer = { status: 400, body: { error: (error as Error).message } };
      }
      if (answer.status === 401 || answer.status === 403) this.refusedRequests++;
      res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
      res.end(JSON.stringify(answer.body));
    });
  }
}

/** The transport of the demo: a real HTTP POST to the server. */
export const fetchTransport =
  (serverUrl: string): PushTransport =>
  async (push) => {
    const response = await fetch(`${serverUrl}${push.path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...push.headers },
      body: push.body,
    });
    return response.status;
  };
