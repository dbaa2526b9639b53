import { type ResourceDef, resources } from "@meterline/contracts";

/** The dictionaries with a master / detail screen: the system one and the per-tenant business one. */
export type DictKind = "system" | "biz";

export const dictDefs: Record<DictKind, ResourceDef> = { system: resources.dict, biz: resources.dictBiz };

/** The two faces of one dictionary resource, as its master / detail screen shows them. */
export interface DictFaces {
  /** Roots carry a dictionary's title and key -1, so their form has neither parent nor key. */
  roots: ResourceDef;
  /** Items belong to the selected root and need a key. */
  items: ResourceDef;
}

function facesOf(def: ResourceDef): DictFaces {
  const { parentId, dictKey } = def.fields;
  if (!parentId || !dictKey) throw new Error(`${def.name} is not a dictionary`);
  return {
    roots: {
      ...def,
      fields: {
        ...def.fields,
        parentId: { ...parentId, form: false },
        dictKey: { ...dictKey, form: false, list: false },
      },
    },
    items: { ...def, fields: { ...def.fields, dictKey: { ...dictKey, required: true } } },
  };
}

const built = new WeakMap<ResourceDef, DictFaces>();

/**
 * The faces of a dictionary, built once per definition: the resource page reloads whenever its
 * definition object changes, so every render must see the same faces.
 */
export function dictFaces(def: ResourceDef): DictFaces {
  let faces = built.get(def);
  if (!faces) {
    faces = facesOf(def);
    built.set(def, faces);
  }
  return faces;
}

/** The key every dictionary root has (contract §10.4). */
export const ROOT_KEY = "-1";
