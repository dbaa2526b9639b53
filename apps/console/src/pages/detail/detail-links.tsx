import type { Row } from "@meterline/api-client";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { type DetailKind, detailPath, meterDetailPath } from "./detail-paths.ts";

/** Screens whose rows are all of one kind of meter, though they carry no energyType. */
const waterScreens = new Set(["water", "waterDataRead", "waterDataDaily"]);
const electricScreens = new Set(["meter", "dataRead", "dataDaily"]);

const idText = (value: unknown) =>
  typeof value === "string" || typeof value === "number" ? String(value) : undefined;

function meterPath(screen: string | undefined, row: Row, id: string | undefined): string | null {
  if (!id) return null;
  if (screen && waterScreens.has(screen)) return meterDetailPath(2, id);
  if (screen && electricScreens.has(screen)) return meterDetailPath(1, id);
  const energy = idText(row.energyType);
  return energy ? meterDetailPath(energy, id) : null;
}

/** The screens that list rooms, owners or meters themselves: their name cell opens the row. */
const ownRows: Record<string, { key: string; kind: DetailKind }> = {
  room: { key: "roomName", kind: "room" },
  owner: { key: "ownerName", kind: "owner" },
  meter: { key: "productCode", kind: "meter" },
  water: { key: "productCode", kind: "water" },
};

/**
 * The detail page a table cell names (issue 11: every table links to them): a room, owner or
 * meter cell of screen `screen` (a resource name, or a list's own name), by the ids the row
 * carries beside the label. Null for every other cell.
 */
export function detailLinkOf(screen: string | undefined, key: string, row: Row): string | null {
  const own = screen ? ownRows[screen] : undefined;
  if (own && own.key === key) {
    const id = idText(row.id);
    return id ? detailPath(own.kind, id) : null;
  }
  switch (key) {
    case "roomId":
    case "roomName": {
      const id = idText(row.roomId);
      return id && id !== "0" ? detailPath("room", id) : null;
    }
    case "ownerId":
    case "ownerName": {
      const id = idText(row.ownerId);
      return id && id !== "0" ? detailPath("owner", id) : null;
    }
    case "meterId":
    case "productCode":
      return meterPath(screen, row, idText(row.meterId));
    default:
      return null;
  }
}

/** The cell's text as a link to its detail page when it names a room, owner or meter. */
export function linkedCell(screen: string | undefined, key: string, row: Row, text: string): ReactNode {
  const to = text ? detailLinkOf(screen, key, row) : null;
  return to ? (
    <Link to={to} className="ml-detail-link" data-detail-link={key}>
      {text}
    </Link>
  ) : (
    text
  );
}
