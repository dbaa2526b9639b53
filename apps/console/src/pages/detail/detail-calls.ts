import type { CollectorOverview, MeterOverview, OwnerOverview, RoomOverview } from "@meterline/contracts";
import { useCallback, useEffect, useState } from "react";
import { useParams } from "react-router";
import { api } from "../../app/api.ts";
import { useLoaded } from "../../components/useLoaded.ts";
import { store } from "../../store/store.ts";
import { type DetailKind, parseDetailPath, rememberDetailSubject } from "./detail-paths.ts";

const pms = "/api/blade-pms";

export interface Overviews {
  room: RoomOverview;
  owner: OwnerOverview;
  meter: MeterOverview;
  water: MeterOverview;
  collector: CollectorOverview;
}

/** One call per page: the server joins everything about the subject (room/overview …). */
export const loadOverview = <K extends DetailKind>(kind: K, id: string) =>
  api.get<Overviews[K]>(`${pms}/${kind}/overview`, { id });

/**
 * The kind and id of the detail page on screen, from its route match (not the location, so a
 * page kept in the background keeps its own subject).
 */
export function useDetailAddress(): { path: string; kind: DetailKind; id: string } | null {
  const splat = useParams()["*"] ?? "";
  const path = `/${splat}`.replace(/\/+$/, "");
  const parsed = parseDetailPath(path);
  return parsed ? { path, ...parsed } : null;
}

/** The page's overview with its loading and error states, and a reload after an action. */
export function useOverview<K extends DetailKind>(kind: K, id: string) {
  const [round, setRound] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` asks for the same subject again.
  const load = useCallback(() => loadOverview(kind, id), [kind, id, round]);
  const state = useLoaded(load);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...state, reload };
}

/** Names the page's tab after its subject ("房间 2号楼 305") once the subject is known. */
export function useTabSubject(path: string, subject: string | undefined) {
  useEffect(() => {
    if (!subject) return;
    rememberDetailSubject(path, subject);
    store.setState((state) => ({
      tabs: state.tabs.map((tab) => (tab.value === path ? { ...tab, meta: { ...tab.meta, subject } } : tab)),
    }));
  }, [path, subject]);
}

/** The last part of an area path and the room: "2号楼 305". */
export function roomSubject(areaPath: string, roomName: string): string {
  const building = areaPath.split(" / ").at(-1);
  return building ? `${building} ${roomName}` : roomName;
}
