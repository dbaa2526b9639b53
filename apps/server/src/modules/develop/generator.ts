import { type FieldDef, MENU_ICON_CLASSES } from "@meterline/contracts";
import type { ColumnInfo, TableInfo } from "./table-catalogue.ts";

/** What a code-generation definition asks for (blade_code, read and checked). */
export interface CodeSpec {
  codeName: string;
  codeNameEn: string;
  serviceName: string;
  tableName: string;
  pkName: string;
  resourceName: string;
  resourcePath: string;
  /** Column names; empty means every column. */
  listFields: string[];
  searchFields: string[];
  formFields: string[];
}

/** A problem with the table or definition, naming the definition's field at fault. */
export class GenerationError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

const AUDIT_COLUMNS = ["create_user", "create_dept", "create_time", "update_user", "update_time", "status"];

export const camelCase = (column: string) =>
  column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
export const kebabCase = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const humanized = (column: string) => {
  const words = column.replace(/_/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};
/** The menu and permission code prefix of a resource: snake_case of its name (contract §19). */
export const menuCodeOfName = (resourceName: string) => snake(resourceName);

interface GeneratedField {
  name: string;
  column: string;
  def: FieldDef;
  zh: string;
  en: string;
}

function fieldType(column: ColumnInfo): Pick<FieldDef, "type" | "maxLength" | "scale"> {
  switch (column.dataType) {
    case "character varying":
    case "character":
      return { type: "string", maxLength: column.maxLength ?? 255 };
    case "text":
      return { type: "text" };
    case "smallint":
    case "integer":
      return { type: "int" };
    case "bigint":
      return { type: "id" };
    case "numeric":
      return { type: "decimal", scale: column.scale ?? 4 };
    case "timestamp with time zone":
    case "timestamp without time zone":
      return { type: "datetime" };
    case "date":
      return { type: "date" };
    default:
      throw new GenerationError("tableName", `列 ${column.name} 的类型 ${column.dataType} 不受支持`);
  }
}

function searchOf(type: FieldDef["type"]): FieldDef["search"] {
  if (type === "string" || type === "text") return "like";
  if (type === "datetime" || type === "date") return "range";
  return "equal";
}

/** Fields of the resource from the table's columns, minus the key and the columns the engine keeps. */
function fieldsOf(spec: CodeSpec, table: TableInfo, systemColumns: Set<string>): GeneratedField[] {
  const columns = table.columns.filter((c) => c.name !== spec.pkName && !systemColumns.has(c.name));
  const known = new Set(columns.map((c) => c.name));
  for (const [field, list] of [
    ["listFields", spec.listFields],
    ["searchFields", spec.searchFields],
    ["formFields", spec.formFields],
  ] as const) {
    const unknown = list.find((name) => !known.has(name));
    if (unknown) throw new GenerationError(field, `表 ${table.name} 没有可用的列 ${unknown}`);
  }
  const chosen = (list: string[], column: string) => list.length === 0 || list.includes(column);
  return columns.map((column) => {
    const name = camelCase(column.name);
    if (!/^[a-z][a-zA-Z0-9]*$/.test(name))
      throw new GenerationError("tableName", `列名 ${column.name} 不合法`);
    const typed = fieldType(column);
    const def: FieldDef = { ...typed };
    if (snake(name) !== column.name) def.column = column.name;
    if (!column.nullable && !column.hasDefault) def.required = true;
    if (table.unique.includes(column.name)) def.unique = true;
    // A search form of every column is noise: without a choice, text columns only.
    const searched = spec.searchFields.length
      ? spec.searchFields.includes(column.name)
      : typed.type === "string";
    if (searched) def.search = searchOf(typed.type);
    if (!chosen(spec.listFields, column.name)) def.list = false;
    // A column left out of the form must not be one the table requires.
    if (!chosen(spec.formFields, column.name)) {
      if (def.required) throw new GenerationError("formFields", `列 ${column.name} 必填,不能不在表单中`);
      def.form = false;
    }
    if (typed.type === "text") def.span = 24;
    return {
      name,
      column: column.name,
      def,
      zh: column.comment?.trim() || humanized(column.name),
      en: humanized(column.name),
    };
  });
}

const literal = (value: unknown) => JSON.stringify(value);
const sqlText = (value: string) => `'${value.replace(/'/g, "''")}'`;

function fieldSource(field: GeneratedField): string {
  const parts = Object.entries(field.def).map(([key, value]) => `${key}: ${literal(value)}`);
  return `    ${field.name}: { ${parts.join(", ")} },`;
}

/** Everything gen-code writes for one definition, by path from the repository root. */
export function generateResource(spec: CodeSpec, table: TableInfo): Record<string, string> {
  if (table.primaryKey.length !== 1 || table.primaryKey[0] !== spec.pkName)
    throw new GenerationError("pkName", `表 ${table.name} 的主键必须是单列 ${spec.pkName}`);
  const pk = table.columns.find((c) => c.name === spec.pkName)!;
  if (pk.dataType !== "bigint") throw new GenerationError("pkName", `主键 ${spec.pkName} 必须是 bigint`);
  const names = new Set(table.columns.map((c) => c.name));
  const tenantScoped = names.has("tenant_id");
  const softDelete = names.has("is_deleted");
  const audit = AUDIT_COLUMNS.every((c) => names.has(c));
  const system = new Set([
    ...(tenantScoped ? ["tenant_id"] : []),
    ...(softDelete ? ["is_deleted"] : []),
    ...(audit ? AUDIT_COLUMNS : []),
  ]);
  const fields = fieldsOf(spec, table, system);
  if (fields.length === 0) throw new GenerationError("tableName", `表 ${table.name} 没有可生成的列`);
  const name = spec.resourceName;
  const menuCode = menuCodeOfName(name);
  const file = kebabCase(name);
  const title = { zh: spec.codeName, en: spec.codeNameEn || humanized(snake(name)) };
  const servicePackage = spec.serviceName.split("-")[1] ?? spec.serviceName;
  const screenPath = `/${servicePackage}/${spec.resourcePath}`;

  const definition = [
    'import { defineResource } from "../../resource/types.ts";',
    "",
    `/** ${title.zh} (${table.name}), made by the code generator from the table's columns. */`,
    `export const ${name} = defineResource({`,
    `  name: ${literal(name)},`,
    ...(menuCode !== name ? [`  menuCode: ${literal(menuCode)},`] : []),
    `  table: ${literal(table.name)},`,
    `  service: ${literal(spec.serviceName)},`,
    `  path: ${literal(spec.resourcePath)},`,
    '  listVerb: "page",',
    `  tenantScoped: ${tenantScoped},`,
    `  softDelete: ${softDelete},`,
    `  audit: ${audit},`,
    "  fields: {",
    ...fields.map(fieldSource),
    "  },",
    "});",
    "",
    `/** Words of the ${title.en} screen. */`,
    `export const ${name}Labels = {`,
    "  zh: {",
    `    title: ${literal(title.zh)},`,
    `    fields: { ${fields.map((f) => `${f.name}: ${literal(f.zh)}`).join(", ")} },`,
    "  },",
    "  en: {",
    `    title: ${literal(title.en)},`,
    `    fields: { ${fields.map((f) => `${f.name}: ${literal(f.en)}`).join(", ")} },`,
    "  },",
    "} as const;",
    "",
  ].join("\n");

  const buttons = [
    { alias: "add", name: "新增", path: `${screenPath}/add`, source: "plus", action: 1 },
    { alias: "edit", name: "修改", path: `${screenPath}/edit`, source: "form", action: 2 },
    {
      alias: "delete",
      name: "删除",
      path: `/api/${spec.serviceName}/${spec.resourcePath}/remove`,
      source: "delete",
      action: 3,
    },
    { alias: "view", name: "查看", path: `${screenPath}/view`, source: "file-text", action: 2 },
  ];
  const menuInsert = (values: string, from: string, code: string) =>
    [
      "insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open)",
      `select (select max(id) + 1 from sys_menu), ${values}`,
      ` where not exists (select 1 from sys_menu where code = ${sqlText(code)} and is_deleted = 0)${from};`,
    ].join("\n");
  const parentOf =
    "coalesce((select id from sys_menu where code = 'tool' and category = 1 and is_deleted = 0), 0)";
  const screenOf = `(select id from sys_menu where code = ${sqlText(menuCode)} and category = 1 and is_deleted = 0)`;
  const header = [
    `-- ${title.zh} (${table.name}): its screen and its buttons (${menuCode}_add|_edit|_delete|_view), made by`,
    "-- the code generator. The screen sits under 研发工具 until moved in 菜单管理.",
  ].join("\n");
  const seed = [
    header,
    menuInsert(
      `${parentOf}, ${sqlText(menuCode)}, ${sqlText(title.zh)}, 'menu', ${sqlText(screenPath)}, ${sqlText(MENU_ICON_CLASSES.appstore)}, 90, 1, 0, 1`,
      "",
      menuCode,
    ),
    ...buttons.map((b, i) =>
      menuInsert(
        `${screenOf}, ${sqlText(`${menuCode}_${b.alias}`)}, ${sqlText(b.name)}, ${sqlText(b.alias)}, ${sqlText(b.path)}, ${sqlText(b.source)}, ${i + 1}, 2, ${b.action}, 1`,
        `\n   and ${screenOf} is not null`,
        `${menuCode}_${b.alias}`,
      ),
    ),
    "",
  ].join("\n\n");

  const test = [
    'import { resources } from "@meterline/contracts";',
    'import { describePlainResources } from "../resource-suite.ts";',
    "",
    `/** ${title.zh} (${table.name}), made by the code generator, through the suite of every plain resource. */`,
    `describePlainResources([resources.${name}]);`,
    "",
  ].join("\n");

  return {
    [`packages/contracts/src/resources/generated/${file}.ts`]: definition,
    [`apps/server/src/db/migrations/seed/900_${menuCode}.sql`]: seed,
    [`apps/server/test/generated/${file}.test.ts`]: test,
  };
}

/**
 * The registry of generated resources (generated/index.ts): every resource made before (`earlier`,
 * the names the running server already holds) and the new ones, so the file replaces the old one.
 */
export function generatedIndex(names: readonly string[]): string {
  const sorted = [...new Set(names)].sort();
  const imports = sorted.map((n) => `import { ${n}, ${n}Labels } from "./${kebabCase(n)}.ts";`);
  const entries = (value: (n: string) => string) =>
    sorted.length === 0 ? "{}" : `{\n${sorted.map((n) => `  ${value(n)},`).join("\n")}\n}`;
  return [
    "/**",
    " * Resources made by the code generator (blade-develop gen-code). The generator writes this file",
    " * again with every resource it has made so far plus the new ones, so unpacking its zip at the",
    " * repository root is all it takes to add a resource: no other file changes.",
    " */",
    'import type { ResourceDef } from "../../resource/types.ts";',
    ...imports,
    "",
    `export const generatedResources = ${entries((n) => n)} as const satisfies Record<string, ResourceDef>;`,
    "",
    "/** Chinese and English labels of the generated resources, merged into the catalogs. */",
    `export const generatedResourcesZh = ${entries((n) => `${n}: ${n}Labels.zh`)} as const;`,
    `export const generatedResourcesEn = ${entries((n) => `${n}: ${n}Labels.en`)} as const;`,
    "",
  ].join("\n");
}
