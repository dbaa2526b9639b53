import net from "node:net";

/** One DTU connection as the balancer forwards it. */
export interface BalancedLink {
  /** Index of the gateway (upstream) it went to. */
  upstream: number;
  /** The collector id of its registration packet, once seen. */
  collectorId: string | undefined;
  /** Gateway-to-DTU chunks forwarded, with when (the gateway's requests). */
  requests: { at: number; bytes: number }[];
  /** Forwarding stopped without a FIN: a cellular link that died silently. */
  silenced: boolean;
  /** When the gateway closed its side (after a silence: it dropped the stale session). */
  upstreamClosedAt: number | undefined;
  downstream: net.Socket;
  upstreamSocket: net.Socket;
}

/**
 * A small loopback TCP balancer in front of several gateways, as HAProxy in TCP mode would be:
 * each new DTU connection goes to the next gateway in turn that accepts a connection (a refused
 * one is skipped, like a failed health check). It can also kill a link silently: forwarding stops
 * in both directions and the gateway's side is left open (no FIN), while the DTU's side is cut so
 * the DTU redials, which is what a DTU does when its cellular link has died.
 */
export class TcpBalancer {
  readonly links: BalancedLink[] = [];
  private readonly server: net.Server;
  private next = 0;
  private steered: number | undefined;

  constructor(private readonly upstreams: readonly { host: string; port: number }[]) {
    this.server = net.createServer((socket) => void this.accept(socket));
  }

  listen(): Promise<{ host: string; port: number }> {
    return new Promise((resolve) => {
      this.server.listen(0, "127.0.0.1", () =>
        resolve({ host: "127.0.0.1", port: (this.server.address() as net.AddressInfo).port }),
      );
    });
  }

  private async accept(downstream: net.Socket): Promise<void> {
    downstream.on("error", () => {});
    downstream.pause();
    const first = this.steered;
    this.steered = undefined;
    for (let tried = 0; tried < this.upstreams.length; tried++) {
      const index = tried === 0 && first !== undefined ? first : this.next++ % this.upstreams.length;
      const upstreamSocket = await this.dial(this.upstreams[index]!);
      if (!upstreamSocket) continue;
      if (downstream.destroyed) {
        upstreamSocket.destroy();
        return;
      }
      this.pipe(downstream, upstreamSocket, index);
      return;
    }
    downstream.destroy();
  }

  private dial(target: { host: string; port: number }): Promise<net.Socket | undefined> {
    return new Promise((resolve) => {
      const socket = net.connect(target);
      socket.once("connect", () => resolve(socket));
      socket.once("error", () => resolve(undefined));
    });
  }

  private pipe(downstream: net.Socket, upstreamSocket: net.Socket, upstream: number): void {
    const link: BalancedLink = {
      upstream,
      collectorId: undefined,
      requests: [],
      silenced: false,
      upstreamClosedAt: undefined,
      downstream,
      upstreamSocket,
    };
    this.links.push(link);
    upstreamSocket.on("error", () => {});
    let head = "";
    downstream.on("data", (chunk: Buffer) => {
      if (link.silenced) return;
      if (link.collectorId === undefined) {
        head += chunk.toString("latin1");
        const match = /REG:([^,\n]+),/.exec(head);
        if (match) link.collectorId = match[1];
      }
      upstreamSocket.write(chunk);
    });
    upstreamSocket.on("data", (chunk: Buffer) => {
      if (link.silenced) return;
      link.requests.push({ at: Date.now(), bytes: chunk.length });
      downstream.write(chunk);
    });
    downstream.on("close", () => {
      if (!link.silenced) upstreamSocket.end();
    });
    upstreamSocket.on("close", () => {
      link.upstreamClosedAt = Date.now();
      if (!link.silenced) downstream.destroy();
    });
    downstream.resume();
  }

  /** The live links of a collector (not silenced, gateway side open). */
  live(collectorId: string): BalancedLink[] {
    return this.links.filter(
      (link) => link.collectorId === collectorId && !link.silenced && link.upstreamClosedAt === undefined,
    );
  }

  /** The next connection goes to this gateway first (a DTU whose redial lands elsewhere). */
  steerNext(upstream: number): void {
    this.steered = upstream;
  }

  /** Kill a collector's link silently: the gateway hears nothing more and no FIN; the DTU redials. */
  silence(link: BalancedLink): void {
    link.silenced = true;
    link.downstream.destroy();
  }

  async close(): Promise<void> {
    for (const link of this.links) {
      link.downstream.destroy();
      link.upstreamSocket.destroy();
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
