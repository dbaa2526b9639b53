import type { Row } from "@meterline/api-client";
import type { Page, TreeNode } from "@meterline/contracts";
import { useEffect, useMemo, useState } from "react";
import { api, reportNetworkError } from "../app/api.ts";
import type { PickerSource } from "./pickers.ts";

/** A node of a picker tree; registry trees say what a node is and whether it may be picked. */
export interface PickerNode extends Omit<TreeNode, "children"> {
  type?: string;
  selectable?: boolean;
  children?: PickerNode[];
}

export interface PickerOption {
  value: string;
  label: string;
}

export type PickerChoices =
  | { kind: "tree"; nodes: PickerNode[] }
  | { kind: "list"; options: PickerOption[] }
  | { kind: "none" };

const emptyOf = (source: PickerSource): PickerChoices =>
  source.kind === "tree"
    ? { kind: "tree", nodes: [] }
    : source.kind === "list"
      ? { kind: "list", options: [] }
      : { kind: "none" };

async function load(source: PickerSource): Promise<PickerChoices> {
  if (source.kind === "none" || !source.path) return emptyOf(source);
  if (source.kind === "tree")
    return { kind: "tree", nodes: await api.get<PickerNode[]>(source.path, source.query) };
  const answer = await api.get<Row[] | Page<Row>>(source.path, source.query);
  const rows = Array.isArray(answer) ? answer : answer.records;
  return {
    kind: "list",
    options: rows.map((row) => {
      const label = String(row[source.label] ?? row.id);
      const detail = source.detail ? row[source.detail] : undefined;
      return { value: String(row.id), label: detail ? `${label} ${String(detail)}` : label };
    }),
  };
}

/**
 * The choices of a picker, loaded whenever its source changes (they change as rows are linked, so
 * every opened form asks again). Only the answer for the current source is kept.
 */
export function usePickerChoices(source: PickerSource): { choices: PickerChoices; loading: boolean } {
  const key = JSON.stringify(source);
  // Rebuilt from its key, so the effect below runs when what the source says changes, not its identity.
  const stable = useMemo(() => JSON.parse(key) as PickerSource, [key]);
  const [state, setState] = useState<{ key: string; choices: PickerChoices; loading: boolean }>(() => ({
    key,
    choices: emptyOf(source),
    loading: source.kind !== "none",
  }));
  useEffect(() => {
    let live = true;
    setState({ key, choices: emptyOf(stable), loading: stable.kind !== "none" });
    load(stable)
      .then((choices) => live && setState({ key, choices, loading: false }))
      .catch((error: unknown) => {
        // Server failures were toasted by the API bridge; the picker just stays empty.
        reportNetworkError(error);
        if (live) setState({ key, choices: emptyOf(stable), loading: false });
      });
    return () => {
      live = false;
    };
  }, [key, stable]);
  return state.key === key ? state : { choices: emptyOf(source), loading: source.kind !== "none" };
}

/** Whether a forest holds a node with this value. */
export function treeHas(nodes: readonly PickerNode[], value: string): boolean {
  return nodes.some((n) => n.value === value || (n.children ? treeHas(n.children, value) : false));
}
