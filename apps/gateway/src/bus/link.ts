import type { SplitFrame } from "@meterline/protocols";

/**
 * A link carries frames to and from the meters of one collector: a DTU's TCP session (one RS-485
 * bus) or the topics of a 4G meter on the MQTT broker. The bus on top of it keeps one request in
 * flight; the link only moves bytes.
 */
export interface FrameLink {
  readonly collectorId: string;
  readonly transport: "tcp" | "mqtt";
  /** Send a request to the meter with this address; false when the link is already closed. */
  send(bytes: Uint8Array, address: string): boolean;
  /** The bus installs its receiver; frames arriving without one are dropped. */
  setReceiver(receiver: (frame: SplitFrame) => void): void;
  readonly closed: boolean;
  onClose(listener: (reason: string) => void): void;
  close(reason: string): void;
}
