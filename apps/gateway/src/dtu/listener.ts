import net from "node:net";
import type { GatewaySettings } from "../config.ts";
import type { RateLimitedLog } from "../log.ts";
import { bump, type Counters } from "../stats.ts";
import { type ConnectionLimits, DtuConnection } from "./connection.ts";
import { parseTemplate } from "./packet-format.ts";

interface IpCount {
  open: number;
  pending: number;
}

/**
 * The TCP server DTUs and concentrators dial. Bounds what strangers can take: connections in
 * total and per IP, unregistered connections in total and per IP (the registration-flood bound),
 * registration time and size; a sweep closes silent (half-open) sessions. A registration counts
 * (and is handed on) only once its collector's secret and source network are proven.
 */
export class DtuListener {
  private readonly server: net.Server;
  private readonly connections = new Set<DtuConnection>();
  private readonly perIp = new Map<string, IpCount>();
  private pending = 0;
  private readonly limits: ConnectionLimits;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly settings: GatewaySettings,
    private readonly counters: Counters,
    private readonly log: RateLimitedLog,
    /** Checks a registration's secret and source: the reason to refuse it, or undefined. */
    private readonly authenticate: (
      connection: DtuConnection,
      secret: string | undefined,
    ) => Promise<string | undefined>,
    private readonly onRegistered: (connection: DtuConnection) => void,
  ) {
    this.limits = {
      registration: parseTemplate(settings.registration),
      heartbeat: parseTemplate(settings.heartbeat),
      heartbeatReply: settings.heartbeatReply ? parseTemplate(settings.heartbeatReply) : null,
      maxRegistrationBytes: settings.maxRegistrationBytes,
      registrationTimeoutMs: settings.registrationTimeoutMs,
      silenceTimeoutMs: settings.heartbeatIntervalMs * settings.missedHeartbeats,
      interByteTimeoutMs: settings.interByteTimeoutMs,
      maxGarbageBytes: settings.maxGarbageBytes,
      maxFrameLength: settings.maxFrameLength,
      maxConcentratorFrameLength: settings.maxConcentratorFrameLength,
    };
    this.server = net.createServer((socket) => this.accept(socket));
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(this.settings.port, this.settings.host, () => {
        this.server.off("error", reject);
        resolve();
      });
    });
    const tick = Math.max(20, Math.min(1000, Math.floor(this.smallestTimeout() / 4)));
    this.sweeper = setInterval(() => this.sweep(), tick);
  }

  address(): { host: string; port: number } {
    const address = this.server.address() as net.AddressInfo;
    return { host: address.address, port: address.port };
  }

  counts(): { open: number; pending: number; registered: number } {
    return {
      open: this.connections.size,
      pending: this.pending,
      registered: this.connections.size - this.pending,
    };
  }

  private closed: Promise<void> | undefined;

  /** No new connection is accepted; those open stay until close(). */
  stopAccepting(): void {
    this.closed ??= new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.stopAccepting();
    for (const connection of this.connections) connection.close("gateway closing");
    await this.closed;
  }

  private smallestTimeout(): number {
    const { registrationTimeoutMs, interByteTimeoutMs } = this.settings;
    return Math.min(registrationTimeoutMs, interByteTimeoutMs, this.limits.silenceTimeoutMs);
  }

  private refuse(socket: net.Socket, ip: string, reason: string): void {
    bump(this.counters.rejected, reason);
    this.log.log(`refuse:${reason}`, "warn", "connection refused", { ip, reason });
    socket.destroy();
  }

  private accept(socket: net.Socket): void {
    const ip = socket.remoteAddress ?? "unknown";
    const count = this.perIp.get(ip) ?? { open: 0, pending: 0 };
    const { maxConnections, maxConnectionsPerIp, maxPending, maxPendingPerIp } = this.settings;
    const refusal =
      this.connections.size >= maxConnections
        ? "max-connections"
        : count.open >= maxConnectionsPerIp
          ? "max-connections-per-ip"
          : this.pending >= maxPending
            ? "max-pending"
            : count.pending >= maxPendingPerIp
              ? "max-pending-per-ip"
              : undefined;
    if (refusal) {
      this.refuse(socket, ip, refusal);
      return;
    }
    this.counters.connectionsAccepted++;
    count.open++;
    count.pending++;
    this.pending++;
    this.perIp.set(ip, count);
    let pending = true;
    const settle = () => {
      if (!pending) return;
      pending = false;
      count.pending--;
      this.pending--;
    };
    const connection = new DtuConnection(
      socket,
      ip,
      this.limits,
      {
        registered: (registered, secret) => {
          this.authenticate(registered, secret)
            .catch(() => "authentication failed")
            .then((refusal) => {
              if (registered.closed) return;
              if (refusal) {
                bump(this.counters.rejected, refusal);
                this.log.log(`auth:${refusal}`, "warn", "DTU refused", {
                  ip,
                  collector: registered.collectorId,
                  reason: refusal,
                });
                registered.close(refusal);
                return;
              }
              settle();
              this.counters.registrations++;
              registered.accept();
              this.onRegistered(registered);
            });
        },
        rejected: (rejected, reason) => {
          bump(this.counters.rejected, reason);
          this.log.log(`reject:${reason}`, "warn", "registration rejected", { ip, reason });
          rejected.close(reason);
        },
      },
      this.counters,
    );
    this.connections.add(connection);
    connection.onClose(() => {
      settle();
      this.connections.delete(connection);
      count.open--;
      if (count.open === 0) this.perIp.delete(ip);
    });
  }

  private sweep(): void {
    const now = Date.now();
    for (const connection of this.connections) {
      const reason = connection.check(now);
      if (!reason) continue;
      // Registered sessions are counted by the registry when their collector detaches.
      if (connection.state === "pending" || connection.state === "authenticating")
        bump(this.counters.rejected, reason);
      this.log.log(`sweep:${reason}`, "info", "connection closed", {
        ip: connection.ip,
        collector: connection.collectorId,
        reason,
      });
      connection.close(reason);
    }
  }
}
