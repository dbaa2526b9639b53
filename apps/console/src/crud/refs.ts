import type { Row } from "@meterline/api-client";
import {
  type FieldDef,
  type ResourceDef,
  resourceBase,
  resources,
  type TreeNode,
} from "@meterline/contracts";
import { useEffect, useState } from "react";
import { api, reportNetworkError } from "../app/api.ts";

/** What a ref field offers: a flat list (select verb) or a forest (tree verb). */
export type RefChoices =
  | { kind: "list"; options: { value: string; label: string }[] }
  | { kind: "tree"; nodes: TreeNode[] };

const target = (field: FieldDef): ResourceDef | undefined =>
  field.ref ? (resources as Record<string, ResourceDef>)[field.ref.resource] : undefined;

/** Tree resources pick from their tree; the others from their select list. */
export function refKind(field: FieldDef): "tree" | "list" {
  return target(field)?.extraVerbs?.includes("tree") ? "tree" : "list";
}

async function loadChoices(field: FieldDef): Promise<RefChoices> {
  const def = target(field);
  if (!def || !field.ref) return { kind: "list", options: [] };
  const base = resourceBase(def);
  if (refKind(field) === "tree") return { kind: "tree", nodes: await api.treeNodes(base) };
  const label = field.ref.label;
  const rows: Row[] = await api.selectRows(base);
  return {
    kind: "list",
    options: rows.map((row) => ({ value: String(row.id), label: String(row[label] ?? row.id) })),
  };
}

/** Choices of a ref field, loaded when its form opens (they change as rows are added). */
export function useRefChoices(field: FieldDef): RefChoices {
  const [choices, setChoices] = useState<RefChoices>(() =>
    refKind(field) === "tree" ? { kind: "tree", nodes: [] } : { kind: "list", options: [] },
  );
  useEffect(() => {
    if (!field.ref) return;
    let live = true;
    loadChoices(field)
      .then((loaded) => live && setChoices(loaded))
      // Server failures were toasted by the API bridge; the select just stays empty.
      .catch(reportNetworkError);
    return () => {
      live = false;
    };
  }, [field]);
  return choices;
}
