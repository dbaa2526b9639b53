import { type ResourceDef, resources } from "@meterline/contracts";

const { dict } = resources;

/**
 * The two faces of the system dictionary. Roots carry the title of a dictionary and key -1, so
 * their form has neither parent nor key; items belong to the selected root and need a key.
 */
export const dictRoots: ResourceDef = {
  ...dict,
  fields: {
    ...dict.fields,
    parentId: { ...dict.fields.parentId, form: false },
    dictKey: { ...dict.fields.dictKey, form: false, list: false },
  },
};

export const dictItems: ResourceDef = {
  ...dict,
  fields: { ...dict.fields, dictKey: { ...dict.fields.dictKey, required: true } },
};

/** The key every dictionary root has (contract §10.4). */
export const ROOT_KEY = "-1";
