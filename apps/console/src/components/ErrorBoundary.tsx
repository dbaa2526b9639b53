import { Component, type ErrorInfo, type ReactNode } from "react";
import { addLog } from "../store/logs.ts";
import { ChunkLoadError } from "./chunk.ts";

interface Props {
  /** Rendered instead of the children once they threw. */
  fallback: (error: Error) => ReactNode;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/** Catches render errors of a page, logs them locally (spec §8) and shows the fallback. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // Chunk failures were logged where the import failed, with the file that was requested.
    if (error instanceof ChunkLoadError) return;
    const failure = error instanceof Error ? error : new Error(String(error));
    addLog({
      type: "error",
      url: window.location.href,
      message: failure.message,
      stack: failure.stack ?? "",
      info: info.componentStack ?? "",
    });
  }

  override render(): ReactNode {
    return this.state.error ? this.props.fallback(this.state.error) : this.props.children;
  }
}
