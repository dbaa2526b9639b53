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
  const server = net.createServer((socket) => {
    sockets.add(socket);
    const splitter = new modbus.TcpFrameSplitter();
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
    socket.on("data", (chunk: Buffer) => {
      for (const bytes of splitter.push(chunk)) {
        const reply = answer(units, bytes, now());
        if (reply) setTimeout(() => socket.destroyed || socket.write(reply), options.replyDelayMs ?? 5);
      }
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve),
  );
  const bound = server.address() as net.AddressInfo;
  return {
    address: () => ({ host: options.host ?? "127.0.0.1", port: bound.port }),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
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
