import { dlt698, isProtocolError, type SplitFrame } from "@meterline/protocols";
import { SimulatedDtu } from "./dtu.ts";

/**
 * A DL/T 698.45 meter with a built-in 4G module: it dials the gateway itself, logs in with a LINK
 * request carrying its address, sends LINK heartbeats while idle, and answers GET / ACTION on the
 * same connection. The transport is a DTU's (dial, redial, reply timing, faults) with the 698.45
 * link in place of a registration packet; its bus holds only the meter itself.
 */
export class SimulatedDialInMeter extends SimulatedDtu {
  /** LINK responses the gateway sent (login and heartbeats answered). */
  linkAnswers = 0;
  private piid = 0;

  private link(type: dlt698.LinkRequestType): Uint8Array {
    this.piid = (this.piid + 1) & 0x3f;
    const heartbeatSeconds = Math.max(1, Math.ceil(this.settings.heartbeatIntervalMs / 1000));
    const time = dlt698.dateTimeOf(new Date(this.clock.now()));
    return dlt698.buildLinkRequest(this.id, { type, heartbeatSeconds, time }, { piid: this.piid });
  }

  protected override greeting(): Uint8Array {
    return this.link("login");
  }

  protected override heartbeatPacket(): Uint8Array {
    return this.link("heartbeat");
  }

  protected override isLinkAnswer(frame: SplitFrame): boolean {
    if (frame.protocol !== "dlt698") return false;
    try {
      const apdu = dlt698.decodeFromClient(dlt698.parseFrame(frame.bytes)).apdu;
      if (apdu?.service !== "link-response") return false;
      this.linkAnswers++;
      return true;
    } catch (error) {
      if (isProtocolError(error)) return false;
      throw error;
    }
  }
}
