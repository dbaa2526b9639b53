import type { Http } from "./http.ts";

/** GET /api/health (public): what the dashboard shows about the running server. */
export interface HealthInfo {
  version: string;
  database: "pglite" | "postgres";
  uptimeSeconds: number;
  startedAt: string;
}

export function systemApi(http: Http) {
  return {
    health(): Promise<HealthInfo> {
      return http.envelope<HealthInfo>("/api/health", { auth: false });
    },
  };
}
