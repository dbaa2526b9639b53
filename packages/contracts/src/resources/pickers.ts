import { type ResourceDef, readCodesOf } from "../resource/types.ts";
import { resources } from "./index.ts";

/** Resources whose fields link to `name`, by `ref` or by any entry of a `refBy`. */
function linkingResources(name: string): string[] {
  return Object.values(resources as Record<string, ResourceDef>)
    .filter((def) =>
      Object.values(def.fields).some(
        (field) =>
          field.ref?.resource === name ||
          Object.values(field.refBy?.resources ?? {}).some((target) => target.resource === name),
      ),
    )
    .map((def) => def.name);
}

const memo = new Map<string, string[]>();

/**
 * Codes that may use the pickers (select, tree, lazy-tree) of a resource: its own screen's, those
 * of every screen whose form or search links to it, and those its definition names in
 * `pickerUsers`. A picker answers what the screens a user holds need, nothing more.
 */
export function pickerCodesOf(name: string): string[] {
  let codes = memo.get(name);
  if (!codes) {
    const def = (resources as Record<string, ResourceDef>)[name];
    const screens = new Set([name, ...linkingResources(name), ...(def?.pickerUsers ?? [])]);
    // A screen named by a resource answers to that resource's menu code; others are menu codes already.
    codes = [...screens].flatMap((screen) =>
      readCodesOf((resources as Record<string, ResourceDef>)[screen] ?? { name: screen }),
    );
    memo.set(name, codes);
  }
  return codes;
}
