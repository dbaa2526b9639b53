import type { GlobalSearchResult } from "@meterline/contracts";
import type { MessageKey } from "../../../i18n/zh.ts";

export type HitKind = "room" | "owner" | "meter" | "collector";

/** One row of the search's answer as the console lists it: what it is, how it reads, where it opens. */
export interface SearchHit {
  key: string;
  kind: HitKind;
  title: string;
  /** The second line: phone, meter name, collector code; empty when there is nothing more to say. */
  detail: string;
  href: string;
  /** i18n key of a short tag beside the title (electric / water), when the kind has several. */
  tag?: MessageKey;
}

/** The groups in the order they are listed, each with its i18n heading. */
export const HIT_GROUPS: readonly { kind: HitKind; label: MessageKey }[] = [
  { kind: "room", label: "globalSearch.rooms" },
  { kind: "owner", label: "globalSearch.owners" },
  { kind: "meter", label: "globalSearch.meters" },
  { kind: "collector", label: "globalSearch.collectors" },
];

/**
 * The detail pages a hit opens (built beside the search); a collector has none and opens the
 * collector screen searching for its code.
 */
export const hitHref = {
  room: (id: string) => `/pms/room/detail/${id}`,
  owner: (id: string) => `/pms/owner/detail/${id}`,
  meter: (id: string, energyType: 1 | 2) =>
    energyType === 2 ? `/pms/water/detail/${id}` : `/pms/meter/detail/${id}`,
  collector: (code: string) => `/pms/collector?${new URLSearchParams({ collectorCode: code })}`,
};

/** The answer as one list in group order: keyboard navigation walks it top to bottom. */
export function searchHits(result: GlobalSearchResult): SearchHit[] {
  return [
    ...result.rooms.map((r) => ({
      key: `room-${r.id}`,
      kind: "room" as const,
      title: r.path,
      detail: r.roomCode ?? "",
      href: hitHref.room(r.id),
    })),
    ...result.owners.map((o) => ({
      key: `owner-${o.id}`,
      kind: "owner" as const,
      title: o.ownerName,
      detail: [o.phone, o.ownerCode, o.idCardTail ? `…${o.idCardTail}` : null].filter(Boolean).join(" · "),
      href: hitHref.owner(o.id),
    })),
    ...result.meters.map((m) => ({
      key: `meter-${m.energyType}-${m.id}`,
      kind: "meter" as const,
      title: m.productCode,
      detail: m.meterName ?? "",
      href: hitHref.meter(m.id, m.energyType),
      tag: m.energyType === 2 ? ("globalSearch.water" as const) : ("globalSearch.electric" as const),
    })),
    ...result.collectors.map((c) => ({
      key: `collector-${c.id}`,
      kind: "collector" as const,
      title: c.collectorName,
      detail: c.collectorCode,
      href: hitHref.collector(c.collectorCode),
    })),
  ];
}
