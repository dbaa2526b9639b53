import net from "node:net";
import { isProtocolError, modbus } from "@meterline/protocols";
import type { FaultPlan } from "./faults.ts";
import type { ModbusMeter } from "./modbus-meter.ts";

/**
 * A simulated Modbus TCP endpoint: a meter with its own Ethernet port, or a Modbus TCP gateway in
 * front of several units. It listens, answers each MBAP request from the unit it names (echoing
 * the transaction id) and ignores units it does not have, as such gateways do.
 */
export interface ModbusTcpServer {
  address(): { host: string; port: number };
  /**
   * The next request to unit `slave` is answered first by an exception (04) under another
   * transaction id, as a stale answer to an earlier request would come; with `thenAnswer` the
   * right reply follows it, else the request (executed all the same) gets no other answer.
   */
  misnumberNext(slave: number, options?: { thenAnswer?: boolean }): void;
  /** Connections accepted so far (a client that redials opens another). */
  connections(): number;
  /** Drops every open connection (a power cut, a gateway rebooting); the port keeps listening. */
  dropConnections(): void;
  close(): Promise<void>;
}

export interface ModbusTcpUnit {
  meter: ModbusMeter;
  faults?: FaultPlan;
}

export async function startModbusTcpServer(
  units: readonly ModbusTcpUnit[],
  options: { host?: string; port?: number; replyDelayMs?: number; now?: () => number } = {},
): Promise<ModbusTcpServer> {
  const sockets = new Set<net.Socket>();
  const now = options.now ?? Date.now;
  const misnumbered = new Map<number, { thenAnswer: boolean }[]>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    accepted++;
    const splitter = new modbus.TcpFrameSplitter();
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
    const send = (bytes: Uint8Array) =>
      setTimeout(() => socket.destroyed || socket.write(bytes), options.replyDelayMs ?? 5);
    socket.on("data", (chunk: Buffer) => {
      for (const bytes of splitter.push(chunk)) {
        const reply = answer(units, bytes, now());
        if (!reply) continue;
        const wrong = misnumbered.get(reply[6]!)?.shift();
        if (!wrong) send(reply);
        else {
          send(staleException(reply));
          if (wrong.thenAnswer) send(reply);
        }
      }
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve),
  );
  const bound = server.address() as net.AddressInfo;
  return {
    address: () => ({ host: options.host ?? "127.0.0.1", port: bound.port }),
    misnumberNext(slave, { thenAnswer = false } = {}) {
      const queue = misnumbered.get(slave) ?? [];
      queue.push({ thenAnswer });
      misnumbered.set(slave, queue);
    },
    connections: () => accepted,
    dropConnections() {
      for (const socket of sockets) socket.destroy();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An exception 04 to the same function as `reply`, from the same unit, under another transaction id. */
function staleException(reply: Uint8Array): Uint8Array {
  const transactionId = ((reply[0]! << 8) | reply[1]!) ^ 0x8000;
  const functionCode = reply[7]! & 0x7f;
  return modbus.buildTcpFrame(
    { transactionId, unit: reply[6]! },
    modbus.encodeReply(modbus.exceptionReply(functionCode, 4)),
  );
}

function answer(units: readonly ModbusTcpUnit[], bytes: Uint8Array, now: number): Uint8Array | undefined {
  try {
    const adu = modbus.parseTcpFrame(bytes);
    const unit = units.find(({ meter }) => meter.config.slave === adu.unit);
    if (!unit) return undefined;
    const request = modbus.decodeRequest(adu.pdu);
    const fault = unit.faults?.next();
    if (fault === "ignore" || fault === "noReply") {
      if (fault === "noReply") unit.meter.answer(request, now);
      return undefined;
    }
    const reply =
      fault === "errorReply"
        ? modbus.exceptionReply(request.functionCode, 4)
        : unit.meter.answer(request, now);
    return modbus.buildTcpFrame(
      { transactionId: adu.transactionId, unit: adu.unit },
      modbus.encodeReply(reply),
    );
  } catch (error) {
    // A garbled request is what a real endpoint ignores.
    if (!isProtocolError(error)) throw error;
    return undefined;
  }
}
