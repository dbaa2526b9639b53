import { useEffect, useRef } from "react";
import { store } from "../store/store.ts";
import { api } from "./api.ts";
import { concerns, type LiveChange } from "./live-change.ts";

export type { LiveChange };

type Listener = (change: LiveChange) => void;

/** Waits before opening the stream again after a loss: growing, so a down server is not hammered. */
const RECONNECT_MS = [1_000, 2_000, 5_000, 10_000, 30_000];
/** Changes arriving this close together make one reload of a page. */
const COALESCE_MS = 300;

const listeners = new Set<Listener>();
let source: EventSource | undefined;
let reconnectTimer: number | undefined;
let attempt = 0;
/** Set once a stream was open: the next one starts with a resync (changes may have been missed). */
let wasOpen = false;
/** Bumped by every disconnect, so a ticket that arrives for an abandoned attempt is dropped. */
let generation = 0;

const emit = (change: LiveChange) => {
  for (const listener of listeners) listener(change);
};

/**
 * One stream per browser tab, while a page listens and someone is signed in. EventSource cannot
 * send the Blade-Auth header, so the stream is opened with a single-use ticket asked for with the
 * token; a lost stream is opened again with a new ticket (EventSource's own retry would reuse the
 * spent one).
 */
function connect(): void {
  if (source || reconnectTimer !== undefined || listeners.size === 0 || !store.getState().token) return;
  const mine = ++generation;
  api
    .request("/api/blade-pms/live/ticket", { method: "POST", silent: true })
    .then((body) => {
      if (mine !== generation || listeners.size === 0) return;
      const ticket = (body as { data?: { ticket?: string } } | undefined)?.data?.ticket;
      if (!ticket) throw new Error("no ticket");
      const stream = new EventSource(`/api/blade-pms/live/stream?ticket=${encodeURIComponent(ticket)}`);
      source = stream;
      stream.addEventListener("ready", () => {
        attempt = 0;
        if (wasOpen) emit({ kind: "resync", meterIds: null });
        wasOpen = true;
      });
      stream.addEventListener("change", (event) => {
        const change = JSON.parse((event as MessageEvent<string>).data) as LiveChange;
        emit({ kind: change.kind, meterIds: change.meterIds ?? null });
      });
      stream.addEventListener("resync", () => emit({ kind: "resync", meterIds: null }));
      stream.onerror = () => {
        if (source !== stream) return;
        stream.close();
        source = undefined;
        retryLater();
      };
    })
    .catch(() => {
      if (mine === generation) retryLater();
    });
}

function retryLater(): void {
  const delay = RECONNECT_MS[Math.min(attempt++, RECONNECT_MS.length - 1)];
  reconnectTimer = window.setTimeout(() => {
    reconnectTimer = undefined;
    connect();
  }, delay);
}

function disconnect(): void {
  generation++;
  source?.close();
  source = undefined;
  if (reconnectTimer !== undefined) window.clearTimeout(reconnectTimer);
  reconnectTimer = undefined;
}

// Signing out ends the stream; signing in again opens it for the pages that listen.
let signedIn = Boolean(store.getState().token);
store.subscribe(() => {
  const now = Boolean(store.getState().token);
  if (now === signedIn) return;
  signedIn = now;
  if (now) connect();
  else disconnect();
});

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  connect();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) disconnect();
  };
}

/**
 * Calls `onChange` when the server announces a change of `kinds` to one of `meterIds`: once for a
 * burst (coalesced), so a batch of commands or a day's close makes one reload, not hundreds.
 */
export function useLiveChanges(
  meterIds: readonly string[] | "all",
  onChange: () => void,
  kinds: readonly LiveChange["kind"][] = ["supply", "balance", "command"],
  enabled = true,
): void {
  const latest = useRef({ meterIds, onChange, kinds });
  latest.current = { meterIds, onChange, kinds };
  useEffect(() => {
    if (!enabled) return;
    let pending: number | undefined;
    const stop = subscribe((change) => {
      const { meterIds: ids, kinds: wanted } = latest.current;
      if (!concerns(change, ids, wanted) || pending !== undefined) return;
      pending = window.setTimeout(() => {
        pending = undefined;
        latest.current.onChange();
      }, COALESCE_MS);
    });
    return () => {
      stop();
      if (pending !== undefined) window.clearTimeout(pending);
    };
  }, [enabled]);
}
