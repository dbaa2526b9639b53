/**
 * The engine's timers, held instead of scheduled: bpmn-engine asks its environment's `timers` for
 * every timeout (bpmn-elements TimerEventDefinition). Nothing is set in memory here — a process may
 * stop at any time — so each step reports the timers its instance now waits on (kept in wf_timer),
 * and the timer runner fires a due one in a later step by calling its callback.
 */

/** A timeout the engine asked for: which element, when it expires, and what completes it. */
export interface HeldTimer {
  elementId: string;
  expireAt: Date;
  fire: () => void;
}

interface TimerRef {
  owner: { id?: string; expireAt?: Date | string } | undefined;
  callback: CallableFunction;
  args: unknown[];
  delay: number;
  timerId: string;
  /** Nothing is scheduled: there is no runtime handle. */
  timerRef: null;
}

export class HeldTimers {
  readonly #held = new Set<TimerRef>();
  #count = 0;

  /** The engine's view of what runs (it clears these when it stops). */
  get executing(): TimerRef[] {
    return [...this.#held];
  }

  register(owner?: TimerRef["owner"]) {
    return {
      owner,
      setTimeout: (callback: TimerRef["callback"], delay: number, ...args: unknown[]) =>
        this.#hold(owner, callback, delay, args),
      clearTimeout: (ref: unknown) => this.clearTimeout(ref),
    };
  }

  setTimeout = (callback: TimerRef["callback"], delay: number, ...args: unknown[]) =>
    this.#hold(undefined, callback, delay, args);

  clearTimeout = (ref: unknown): undefined => {
    this.#held.delete(ref as TimerRef);
    return undefined;
  };

  #hold(owner: TimerRef["owner"], callback: TimerRef["callback"], delay: number, args: unknown[]): TimerRef {
    const ref: TimerRef = { owner, callback, args, delay, timerId: `timer_${this.#count++}`, timerRef: null };
    this.#held.add(ref);
    return ref;
  }

  /** The element timers now held, each with its expiry as the engine computed it. */
  pending(now = new Date()): HeldTimer[] {
    const out: HeldTimer[] = [];
    for (const ref of this.#held) {
      const elementId = ref.owner?.id;
      if (!elementId) continue;
      const expireAt = ref.owner?.expireAt
        ? new Date(ref.owner.expireAt)
        : new Date(now.getTime() + ref.delay);
      out.push({
        elementId,
        expireAt,
        fire: () => {
          this.#held.delete(ref);
          Reflect.apply(ref.callback, undefined, ref.args);
        },
      });
    }
    return out;
  }
}
