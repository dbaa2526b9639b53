import type { QueryParams } from "@meterline/api-client";
import { type FieldDef, type ResourceDef, resourceBase, resources } from "@meterline/contracts";
import { fieldPickers, targetPickers } from "./picker-registry.ts";

/** Where the choices of a link field come from. */
export type PickerSource =
  /** A forest (TreeNode[]); only nodes whose `selectable` is not false may be picked. */
  | { kind: "tree"; path: string; query?: QueryParams }
  /** Rows (a list, or a page whose records are used), shown by their `label` field. */
  | { kind: "list"; path: string; query?: QueryParams; label: string; detail?: string }
  /** Nothing to pick yet: `waitFor` names the field to fill first (a meter's energy type). */
  | { kind: "none"; waitFor: string };

/** The resource a link points at and the field that names its rows. */
export interface LinkTarget {
  resource: string;
  label: string;
}

/** One use of a link field: in which resource's form or search, and with what around it. */
export interface PickerUse {
  resource: string;
  field: string;
  target: LinkTarget;
  /** Values of the fields it depends on (`dependsOn`, or the `refBy` field). */
  values: Record<string, unknown>;
  /** A search offers every row; a form may offer only what is still free to link. */
  purpose: "form" | "search";
}

/**
 * A picker of one form field that narrows the target's usual choices (rooms without an owner for
 * an owner-room link). `dependsOn` fields are watched, and the field is emptied when they change.
 */
export interface FieldPicker {
  dependsOn?: readonly string[];
  source: (use: PickerUse) => PickerSource;
}

const definitions = resources as Record<string, ResourceDef>;

/** The field's target for the values around it: `ref`, or the `refBy` entry of the chosen value. */
export function linkTarget(field: FieldDef, values: Record<string, unknown>): LinkTarget | undefined {
  if (field.ref) return field.ref;
  if (!field.refBy) return undefined;
  const chosen = values[field.refBy.field];
  return chosen === undefined || chosen === null || chosen === ""
    ? undefined
    : field.refBy.resources[String(chosen)];
}

/** The fields whose values decide the choices of `name` in the form of `def`. */
export function pickerDependencies(
  def: Pick<ResourceDef, "name" | "fields">,
  name: string,
  purpose: PickerUse["purpose"],
): string[] {
  const field = def.fields[name];
  const own = field?.refBy ? [field.refBy.field] : [];
  const registered = purpose === "form" ? (fieldPickers[`${def.name}.${name}`]?.dependsOn ?? []) : [];
  return [...new Set([...own, ...registered])];
}

/** Fields to empty when `changed` changes: their earlier choice belongs to other choices. */
export function dependentFields(
  def: Pick<ResourceDef, "name" | "fields">,
  changed: string,
  purpose: PickerUse["purpose"],
): string[] {
  return Object.keys(def.fields).filter((name) => pickerDependencies(def, name, purpose).includes(changed));
}

/** The usual choices of a target: its registered picker, its tree, or its `select` list. */
function targetSource(use: PickerUse): PickerSource {
  const registered = targetPickers[use.target.resource];
  if (registered) return registered(use);
  const def = definitions[use.target.resource];
  if (!def) return { kind: "list", path: "", label: use.target.label };
  const base = resourceBase(def);
  return def.extraVerbs?.includes("tree")
    ? { kind: "tree", path: `${base}/tree` }
    : { kind: "list", path: `${base}/select`, label: use.target.label };
}

/**
 * Where the choices of one link field come from. Form pickers registered for `<resource>.<field>`
 * win (they offer what is still free to link); everything else, searches included, gets the
 * target's usual choices, so any definition whose ref names a registered target reuses its picker.
 */
export function pickerSource(use: PickerUse): PickerSource {
  const own = use.purpose === "form" ? fieldPickers[`${use.resource}.${use.field}`] : undefined;
  return own ? own.source(use) : targetSource(use);
}
