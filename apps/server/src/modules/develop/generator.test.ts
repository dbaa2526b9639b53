import assert from "node:assert/strict";
import { test } from "node:test";
import { type CodeSpec, GenerationError, generatedIndex, generateResource } from "./generator.ts";
import type { ColumnInfo, TableInfo } from "./table-catalogue.ts";

const column = (name: string, dataType: string, more: Partial<ColumnInfo> = {}): ColumnInfo => ({
  name,
  dataType,
  maxLength: null,
  scale: null,
  nullable: true,
  hasDefault: false,
  comment: null,
  ...more,
});

const spec: CodeSpec = {
  codeName: "部件",
  codeNameEn: "",
  serviceName: "blade-lab",
  tableName: "lab_part",
  pkName: "id",
  resourceName: "labPart",
  resourcePath: "part",
  listFields: [],
  searchFields: [],
  formFields: [],
};

const table = (columns: ColumnInfo[], primaryKey = ["id"]): TableInfo => ({
  name: "lab_part",
  comment: null,
  columns: [column("id", "bigint", { nullable: false }), ...columns],
  primaryKey,
  unique: [],
});

test("a camelCase resource gets a snake_case menu code, file name and buttons", () => {
  const files = generateResource(spec, table([column("part_name", "character varying", { maxLength: 40 })]));
  const def = files["packages/contracts/src/resources/generated/lab-part.ts"]!;
  assert.match(def, /name: "labPart",\n {2}menuCode: "lab_part",/);
  assert.match(def, /tenantScoped: false,\n {2}softDelete: false,\n {2}audit: false,/);
  assert.match(def, /title: "Lab part"/);
  const seed = files["apps/server/src/db/migrations/seed/900_lab_part.sql"]!;
  for (const alias of ["add", "edit", "delete", "view"])
    assert.ok(seed.includes(`'lab_part_${alias}'`), alias);
  assert.ok(files["apps/server/test/generated/lab-part.test.ts"]!.includes("resources.labPart"));
});

test("the registry keeps every resource generated before and adds the new ones once", () => {
  const index = generatedIndex(["zeta", "labPart", "zeta"]);
  assert.match(
    index,
    /import \{ labPart, labPartLabels \} from "\.\/lab-part\.ts";\nimport \{ zeta, zetaLabels \}/,
  );
  assert.match(index, /generatedResources = \{\n {2}labPart,\n {2}zeta,\n\}/);
  assert.match(generatedIndex([]), /generatedResources = \{\} as const/);
});

test("what the engine cannot carry is refused naming the definition's field", () => {
  const refusals: [CodeSpec, TableInfo, string][] = [
    [spec, table([column("flag", "boolean")]), "tableName"],
    [spec, table([column("part_name", "text")], ["part_name"]), "pkName"],
    [
      { ...spec, formFields: ["note"] },
      table([column("code", "text", { nullable: false }), column("note", "text")]),
      "formFields",
    ],
    [{ ...spec, listFields: ["missing"] }, table([column("note", "text")]), "listFields"],
    [spec, table([]), "tableName"],
  ];
  for (const [given, info, field] of refusals)
    assert.throws(
      () => generateResource(given, info),
      (error: unknown) => error instanceof GenerationError && error.field === field,
      field,
    );
});
