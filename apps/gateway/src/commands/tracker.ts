import type { CommandEvidence, CommandState, MeterCommand } from "../model.ts";
import type { CommandSource } from "../ports.ts";
import type { Counters } from "../stats.ts";
import { transition } from "./lifecycle.ts";

/**
 * The gateway's view of one command's state. Every change goes through the lifecycle check and is
 * recorded with the command source before the gateway acts on it (in particular "sent" is stored
 * before the frame is written, so a crash can only lose a send, never repeat one).
 */
export class CommandTracker {
  state: CommandState = "queued";
  request: string | undefined;

  constructor(
    readonly command: MeterCommand,
    private readonly source: CommandSource,
    private readonly counters: Counters,
  ) {}

  async to(state: CommandState, evidence: CommandEvidence): Promise<void> {
    const from = this.state;
    this.state = transition(from, state);
    if (evidence.request) this.request = evidence.request;
    if (state === "success" || state === "fail" || state === "timeout") this.counters.commands[state]++;
    if (from === "timeout" || (state !== "timeout" && evidence.readBack && !evidence.reply))
      this.counters.commands.reconciled++;
    await this.source.update({ commandId: this.command.id, state, at: new Date(), evidence });
  }
}
