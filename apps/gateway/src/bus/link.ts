import type { modbus, SplitFrame } from "@meterline/protocols";
import type { MeterInfo } from "../model.ts";

/**
 * A link carries frames to and from the meters of one collector: a DTU's TCP session (one RS-485
 * bus) or the topics of a 4G meter on the MQTT broker. The bus on top of it keeps one request in
 * flight; the link only moves bytes.
 */
export interface FrameLink {
  readonly collectorId: string;
  /** "modbus-tcp": a Modbus TCP endpoint the gateway connected out to (modbus/tcp-link.ts). */
  readonly transport: "tcp" | "mqtt" | "modbus-tcp";
  /** A Q/GDW 1376.1 concentrator forwards each frame over its carrier: slower than a DTU's bus. */
  readonly kind?: "concentrator";
  /**
   * A concentrator says the meter gave no answer (an empty forwarded reply): the bus gives up on
   * the request in flight then, instead of waiting out its timeout.
   */
  setNoAnswer?(listener: () => void): void;
  /**
   * The collector reported events of these meters on its own (a concentrator's AFN 0E report):
   * the collector polls them at once, so the events show in their readings and alarms.
   */
  onMeterEvents?(listener: (meterIds: string[]) => void): void;
  /** The meters behind the collector changed (a concentrator keeps its meter file in step). */
  setMeters?(meters: readonly MeterInfo[]): void;
  /**
   * Send a request to the meter with this address; false when the link is already closed.
   * `modbusReply`: a Modbus-RTU request, whose reply has no start byte and is found in the byte
   * stream only against the request it answers (links that carry RTU look for it; others ignore it).
   */
  send(bytes: Uint8Array, address: string, modbusReply?: modbus.PendingReply): boolean;
  /** The bus installs its receiver; frames arriving without one are dropped. */
  setReceiver(receiver: (frame: SplitFrame) => void): void;
  readonly closed: boolean;
  onClose(listener: (reason: string) => void): void;
  close(reason: string): void;
}
