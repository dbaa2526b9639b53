import assert from "node:assert/strict";
import { test } from "node:test";
import { resources } from "@meterline/contracts";
import { dictDefs, dictFaces } from "../src/pages/dict/dict-defs.ts";

test("both dictionaries have roots without key or parent in the form and items with a required key", () => {
  for (const def of [resources.dict, resources.dictBiz]) {
    const { roots, items } = dictFaces(def);
    assert.equal(roots.name, def.name, "the faces call the dictionary's own routes");
    assert.equal(roots.fields.dictKey?.form, false);
    assert.equal(roots.fields.parentId?.form, false);
    assert.equal(items.fields.dictKey?.required, true);
    assert.equal(items.fields.code?.required, true);
  }
});

test("the faces of a dictionary are built once, so its pages do not reload on every render", () => {
  assert.equal(dictFaces(resources.dictBiz), dictFaces(resources.dictBiz));
  assert.notEqual(dictFaces(resources.dict).items, dictFaces(resources.dictBiz).items);
  assert.equal(dictDefs.biz, resources.dictBiz);
});
