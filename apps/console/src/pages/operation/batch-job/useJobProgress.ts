import type { BatchJobSummary } from "@meterline/contracts";
import { useCallback, useEffect, useRef, useState } from "react";
import { describeError } from "../../../app/api.ts";
import { loadJob } from "./batch-job-calls.ts";

export const POLL_MS = 1000;

export interface JobProgress {
  job: BatchJobSummary | undefined;
  /** The last read failed (the poll keeps trying while the job may still run). */
  error: string | null;
  /** Reads the job now, e.g. after a cancel. */
  refresh: () => void;
}

/**
 * A job as it runs: read every second while it is running and the page is visible; no reads once
 * it has ended or while the tab is hidden (reading resumes when it is shown again).
 */
export function useJobProgress(id: string | null, tenantId?: string): JobProgress {
  const [job, setJob] = useState<BatchJobSummary>();
  const [error, setError] = useState<string | null>(null);
  const latest = useRef<BatchJobSummary>(undefined);
  // Set while a job is followed: reads it now (after a cancel, or a retry of a failed read).
  const readNow = useRef<() => void>(() => undefined);

  // A job already shown stays until the next one has been read (no flicker between ids).
  useEffect(() => {
    if (!id) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      clearTimeout(timer);
      const running = latest.current?.id !== id || latest.current.state === "running";
      if (live && running && document.visibilityState === "visible") timer = setTimeout(poll, POLL_MS);
    };
    const poll = () =>
      loadJob(id, tenantId).then(
        (next) => {
          if (!live) return;
          latest.current = next;
          setJob(next);
          setError(null);
          schedule();
        },
        (failure: unknown) => {
          if (!live) return;
          setError(describeError(failure));
          schedule();
        },
      );
    const onVisibility = () => {
      clearTimeout(timer);
      const ended = latest.current?.id === id && latest.current.state !== "running";
      if (document.visibilityState === "visible" && !ended) void poll();
    };
    readNow.current = () => {
      clearTimeout(timer);
      void poll();
    };
    void poll();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      live = false;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [id, tenantId]);

  const refresh = useCallback(() => readNow.current(), []);
  return { job: job?.id === id ? job : undefined, error, refresh };
}
