/**
 * Meter run status word 3 (DI 04000503), the word to re-read after every relay command
 * (metering-domain.md §1.7, §6 item 5). Bit 4 is the actual relay state, bit 6 the commanded
 * state, so "commanded closed but still open" is a close waiting for the user's button (1B).
 * Bit 5 (active time-zone set) is per the standard; bits 12..15 polarity varies on older
 * meters (check the manual).
 */
export type RelayState = "closed" | "open" | "close-pending" | "trip-pending";
export type MeterKind = "not-prepaid" | "energy-prepaid" | "money-prepaid" | "reserved";

export interface StatusWord3 {
  raw: number;
  /** Bit 0: second time-slot table active. */
  secondSlotTable: boolean;
  /** Bits 1-2. */
  supply: "main" | "auxiliary" | "battery" | "reserved";
  /** Bit 3. */
  programmingAllowed: boolean;
  /** Bit 4: 1 = relay open (supply cut). */
  relayOpen: boolean;
  /** Bit 5: second time-zone table active. */
  secondZoneTable: boolean;
  /** Bit 6: 1 = relay commanded open. */
  relayCommandOpen: boolean;
  /** Bit 7. */
  preTripAlarm: boolean;
  /** Bits 8-9. */
  meterKind: MeterKind;
  /** Bit 10: second tariff price set active. */
  secondPriceSet: boolean;
  /** Bit 11: second ladder set active. */
  secondLadderSet: boolean;
  /** Bit 12: power-hold (保电) on — trip commands are ignored. */
  powerHold: boolean;
  /** Bit 13: identity authentication valid. */
  authenticated: boolean;
  /** Bit 14: 1 = local account not opened. */
  localAccountNotOpened: boolean;
  /** Bit 15: 1 = remote account not opened. */
  remoteAccountNotOpened: boolean;
  /** Summary of bits 4 and 6 for the console. */
  relay: RelayState;
}

const SUPPLY = ["main", "auxiliary", "battery", "reserved"] as const;
const KINDS = ["not-prepaid", "energy-prepaid", "money-prepaid", "reserved"] as const;

export function decodeStatusWord3(raw: number): StatusWord3 {
  const bit = (n: number) => (raw & (1 << n)) !== 0;
  const relayOpen = bit(4);
  const relayCommandOpen = bit(6);
  let relay: RelayState;
  if (relayOpen) relay = relayCommandOpen ? "open" : "close-pending";
  else relay = relayCommandOpen ? "trip-pending" : "closed";
  return {
    raw,
    secondSlotTable: bit(0),
    supply: SUPPLY[(raw >> 1) & 3]!,
    programmingAllowed: bit(3),
    relayOpen,
    secondZoneTable: bit(5),
    relayCommandOpen,
    preTripAlarm: bit(7),
    meterKind: KINDS[(raw >> 8) & 3]!,
    secondPriceSet: bit(10),
    secondLadderSet: bit(11),
    powerHold: bit(12),
    authenticated: bit(13),
    localAccountNotOpened: bit(14),
    remoteAccountNotOpened: bit(15),
    relay,
  };
}

/** Status word 3 from its two wire bytes (low byte first). */
export function statusWord3FromWire(wire: Uint8Array): StatusWord3 {
  return decodeStatusWord3((wire[0] ?? 0) | ((wire[1] ?? 0) << 8));
}

/**
 * Meter run status word 1 (DI 04000501, DL/T 645-2007 appendix): bit 1 demand method, bit 2 clock
 * battery, bit 3 the battery for reading during a power cut, bit 4 active and bit 5 reactive power
 * direction (1 reverse); the other bits are reserved.
 */
export interface StatusWord1 {
  raw: number;
  /** Bit 1: 1 = block demand, 0 = sliding demand. */
  blockDemand: boolean;
  /** Bit 2: the clock battery is low. */
  clockBatteryLow: boolean;
  /** Bit 3: the battery for reading without mains is low. */
  readingBatteryLow: boolean;
  /** Bit 4: active power flows in reverse. */
  activeReverse: boolean;
  /** Bit 5: reactive power flows in reverse. */
  reactiveReverse: boolean;
}

export function decodeStatusWord1(raw: number): StatusWord1 {
  const bit = (n: number) => (raw & (1 << n)) !== 0;
  return {
    raw,
    blockDemand: bit(1),
    clockBatteryLow: bit(2),
    readingBatteryLow: bit(3),
    activeReverse: bit(4),
    reactiveReverse: bit(5),
  };
}

/** Meter side: status word 1 from its flags (the reserved bits stay 0). */
export function encodeStatusWord1(flags: Partial<Omit<StatusWord1, "raw">>): number {
  return (
    (flags.blockDemand ? 1 << 1 : 0) |
    (flags.clockBatteryLow ? 1 << 2 : 0) |
    (flags.readingBatteryLow ? 1 << 3 : 0) |
    (flags.activeReverse ? 1 << 4 : 0) |
    (flags.reactiveReverse ? 1 << 5 : 0)
  );
}
