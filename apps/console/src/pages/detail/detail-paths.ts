/**
 * The detail pages' addresses (issue 11). Fixed: the global search and every table's links open
 * them, so a room, owner or meter always has the same address.
 */
export type DetailKind = "room" | "owner" | "meter" | "water" | "collector";

export const DETAIL_KINDS: readonly DetailKind[] = ["room", "owner", "meter", "water", "collector"];

/** The address of a detail page. */
export const detailPath = (kind: DetailKind, id: string) => `/pms/${kind}/detail/${encodeURIComponent(id)}`;

/** The meter detail of a meter of either kind (1 electric, 2 water). */
export const meterDetailPath = (energyType: number | string, id: string) =>
  detailPath(Number(energyType) === 2 ? "water" : "meter", id);

const pattern = /^\/pms\/(room|owner|meter|water|collector)\/detail\/(\d{1,20})$/;

/** The kind and id a path names, or null for any other path. */
export function parseDetailPath(path: string): { kind: DetailKind; id: string } | null {
  const match = pattern.exec(path);
  if (!match?.[1] || !match[2]) return null;
  return { kind: match[1] as DetailKind, id: match[2] };
}

/**
 * What a detail tab is called besides its kind ("2号楼 305"), once its page has loaded: data, not
 * words, so the same in both languages. Kept here so the tab keeps it when it is opened again.
 */
const subjects = new Map<string, string>();

export const detailSubject = (path: string) => subjects.get(path);

export function rememberDetailSubject(path: string, subject: string) {
  subjects.set(path, subject);
}
