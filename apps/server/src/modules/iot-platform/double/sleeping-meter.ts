import { cjt188 } from "@meterline/protocols";

/**
 * An NB-IoT water meter as its platform sees it: asleep but for its wakes, when it reports its
 * 901F data (volume, valve, battery) as a transparent CJ/T 188 frame and takes the commands its
 * platform held for it. Electric NB-IoT meters are not simulated here.
 */
export class SleepingWaterMeter {
  /** Hundredths of a cubic metre on the register. */
  private steps: bigint;
  valve: "open" | "closed" = "open";

  constructor(
    readonly deviceId: string,
    readonly address: string,
    volume = "12.50",
  ) {
    this.steps = BigInt(volume.replace(".", ""));
  }

  /** Water drawn since the last wake; a closed valve lets none through. */
  draw(hundredths: number) {
    if (this.valve === "open") this.steps += BigInt(hundredths);
  }

  get volume(): string {
    const text = this.steps.toString().padStart(3, "0");
    return `${text.slice(0, -2)}.${text.slice(-2)}`;
  }

  /** The report frame of a wake: the meter's 901F answer as it would give it on its bus. */
  reportFrame(now: Date): Uint8Array {
    return cjt188.buildReadDataReply(this.address, {
      currentTotal: this.volume,
      settlementDayTotal: this.volume,
      time: {
        year: now.getUTCFullYear(),
        month: now.getUTCMonth() + 1,
        day: now.getUTCDate(),
        hour: now.getUTCHours(),
        minute: now.getUTCMinutes(),
        second: now.getUTCSeconds(),
      },
      status: { valve: this.valve },
    });
  }

  /** Carries out a command frame; its reply frame, or undefined when the meter refuses it. */
  execute(frame: Uint8Array): Uint8Array | undefined {
    try {
      const decoded = cjt188.decodeRequest(cjt188.parseFrame(frame));
      const message = decoded.message;
      if (decoded.address !== this.address || message.kind !== "valve-control-request") return undefined;
      if (message.command !== "open" && message.command !== "close") return undefined;
      this.valve = message.command === "open" ? "open" : "closed";
      return cjt188.buildValveControlReply(this.address, { valve: this.valve }, { ser: message.ser });
    } catch {
      return undefined;
    }
  }
}
