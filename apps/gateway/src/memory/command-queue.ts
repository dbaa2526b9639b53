import { randomUUID } from "node:crypto";
import { isFinal, transition } from "../commands/lifecycle.ts";
import type { CommandAction, CommandState, CommandUpdate, MeterCommand } from "../model.ts";
import type { ClaimRequest, CommandSource } from "../ports.ts";

export interface StoredCommand {
  command: MeterCommand;
  state: CommandState;
  claimedBy: string | null;
  history: CommandUpdate[];
}

/**
 * The command queue in memory (embedded demo, tests, benchmark). Enforces the lifecycle on every
 * update, so a gateway bug that would skip or repeat a state fails loudly here.
 */
export class MemoryCommandQueue implements CommandSource {
  private readonly commands = new Map<string, StoredCommand>();
  /** Queued and unclaimed, in queue order. */
  private readonly waiting = new Map<string, StoredCommand>();
  private readonly queuedListeners = new Set<() => void>();
  private readonly updateListeners = new Set<(stored: StoredCommand) => void>();

  constructor(private readonly collectorOf: (meterId: string) => string | undefined) {}

  enqueue(
    meterId: string,
    action: CommandAction,
    extra: Partial<Omit<MeterCommand, "meterId" | "action">> = {},
  ): MeterCommand {
    const command: MeterCommand = { id: extra.id ?? randomUUID(), meterId, action, ...extra };
    if (this.commands.has(command.id)) throw new Error(`command ${command.id} exists`);
    const stored: StoredCommand = { command, state: "queued", claimedBy: null, history: [] };
    this.commands.set(command.id, stored);
    this.waiting.set(command.id, stored);
    for (const listener of this.queuedListeners) listener();
    return command;
  }

  async claim(request: ClaimRequest): Promise<MeterCommand[]> {
    const collectors = new Set(request.collectorIds);
    const claimed: MeterCommand[] = [];
    for (const stored of this.waiting.values()) {
      if (claimed.length >= request.limit) break;
      const collectorId = this.collectorOf(stored.command.meterId);
      if (collectorId === undefined || !collectors.has(collectorId)) continue;
      stored.claimedBy = request.owner;
      this.waiting.delete(stored.command.id);
      claimed.push(stored.command);
    }
    return claimed;
  }

  async release(commandIds: readonly string[]): Promise<void> {
    for (const id of commandIds) {
      const stored = this.commands.get(id);
      if (stored?.state !== "queued") continue;
      stored.claimedBy = null;
      this.waiting.set(id, stored);
    }
    if (commandIds.length > 0) for (const listener of this.queuedListeners) listener();
  }

  async update(update: CommandUpdate): Promise<void> {
    const stored = this.commands.get(update.commandId);
    if (!stored) throw new Error(`unknown command ${update.commandId}`);
    stored.state = transition(stored.state, update.state);
    stored.history.push(update);
    this.waiting.delete(update.commandId);
    for (const listener of this.updateListeners) listener(stored);
  }

  onQueued(listener: () => void): () => void {
    this.queuedListeners.add(listener);
    return () => this.queuedListeners.delete(listener);
  }

  get(commandId: string): StoredCommand | undefined {
    return this.commands.get(commandId);
  }

  all(): StoredCommand[] {
    return [...this.commands.values()];
  }

  /** Resolves when the command reaches one of `states` (final states by default), or rejects on timeout. */
  waitFor(
    commandId: string,
    states: readonly CommandState[] = ["success", "fail", "timeout"],
    timeoutMs = 30_000,
  ): Promise<StoredCommand> {
    const stored = this.commands.get(commandId);
    if (!stored) return Promise.reject(new Error(`unknown command ${commandId}`));
    if (states.includes(stored.state)) return Promise.resolve(stored);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.updateListeners.delete(listener);
        reject(new Error(`command ${commandId} still ${stored.state} after ${timeoutMs} ms`));
      }, timeoutMs);
      const listener = (changed: StoredCommand) => {
        if (changed !== stored || !states.includes(changed.state)) return;
        clearTimeout(timer);
        this.updateListeners.delete(listener);
        resolve(changed);
      };
      this.updateListeners.add(listener);
    });
  }

  /** Commands not yet final (queued, sent, or timeout still open to reconciliation). */
  unsettled(): StoredCommand[] {
    return this.all().filter((stored) => !isFinal(stored.state));
  }
}
