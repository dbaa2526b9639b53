import { useState } from "react";
import { reportNetworkError } from "../../app/api.ts";

/**
 * One upload at a time with its progress: `progress` is the percentage of the file sent while a
 * call runs and null when idle. Failures were toasted by the API bridge; they only end the run.
 */
export function useImportUpload(file: File | null) {
  const [progress, setProgress] = useState<number | null>(null);
  const run = async <T>(
    call: (file: File, onProgress: (percent: number) => void) => Promise<T>,
    done: (answer: T) => void,
  ) => {
    if (!file) return;
    setProgress(0);
    try {
      done(await call(file, setProgress));
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setProgress(null);
    }
  };
  return { progress, busy: progress !== null, run };
}
