import { readdirSync, readFileSync } from "node:fs";
import { generatedResources, type ResourceDef, resourceBase, resources } from "@meterline/contracts";
import { strToU8, zipSync } from "fflate";
import { badRequest, notFound } from "../../contract/errors.ts";
import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { AFTER_RESOURCES_DIR, MIGRATIONS_DIR } from "../../db/migrate.ts";
import { CodeRepository, type CodeRow, type CodeValues } from "./code.repository.ts";
import { type DatasourceService, formText } from "./datasource.service.ts";
import {
  type CodeSpec,
  camelCase,
  GenerationError,
  generatedIndex,
  generateResource,
  menuCodeOfName,
} from "./generator.ts";
import { readTable } from "./table-catalogue.ts";

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const SERVICE = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const RESOURCE = /^[a-z][a-zA-Z0-9]*$/;
const PATH = /^[a-z][a-z0-9-]*$/;

/**
 * Tables the server's own schema migrations create (ledgers, commands, sessions): domain tables
 * whose rules live in modules, never to be handed to the generic engine.
 */
function migrationTables(): Set<string> {
  const tables = new Set<string>();
  for (const dir of [MIGRATIONS_DIR, AFTER_RESOURCES_DIR]) {
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".sql"))) {
      const sql = readFileSync(dir + file, "utf8");
      for (const m of sql.matchAll(/create\s+table\s+(?:if\s+not\s+exists\s+)?([a-z_][a-z0-9_]*)/gi))
        tables.add(m[1]!.toLowerCase());
    }
  }
  return tables;
}

const csvColumns = (input: Record<string, unknown>, name: string) => {
  const list = formText(input, name, 2000, false)
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.some((c) => !IDENTIFIER.test(c))) throw badRequest(`${name}: 只能是以逗号分隔的列名`);
  return [...new Set(list)].join(",");
};

export const codeView = (row: CodeRow) => ({
  id: row.id,
  datasourceId: row.datasource_id,
  serviceName: row.service_name,
  codeName: row.code_name,
  codeNameEn: row.code_name_en,
  tableName: row.table_name,
  tablePrefix: row.table_prefix,
  pkName: row.pk_name,
  resourceName: row.resource_name,
  resourcePath: row.resource_path,
  listFields: row.list_fields,
  searchFields: row.search_fields,
  formFields: row.form_fields,
});

/** Code-generation definitions and the generator run over them (contract §14.1). */
export class CodeService {
  private readonly repository: CodeRepository;
  private readonly reservedTables = migrationTables();

  constructor(
    private readonly db: Queryable,
    private readonly datasources: DatasourceService,
  ) {
    this.repository = new CodeRepository(db);
  }

  page(
    filter: { codeName?: string | undefined; tableName?: string | undefined },
    size: number,
    offset: number,
  ) {
    return this.repository.page(filter, size, offset);
  }

  async detail(id: string): Promise<CodeRow> {
    const row = await this.repository.find(id);
    if (!row) throw notFound("代码生成配置不存在");
    return row;
  }

  async submit(input: Record<string, unknown>): Promise<string> {
    const id = typeof input.id === "string" && input.id ? input.id : undefined;
    if (id && !(await this.repository.find(id))) throw notFound("代码生成配置不存在");
    const values = await this.read(input);
    await this.refuseClash(values);
    if (id) {
      await this.repository.update(id, values);
      return id;
    }
    const newId = nextId();
    await this.repository.insert(newId, values);
    return newId;
  }

  remove(ids: string[]) {
    return this.repository.remove(ids);
  }

  /** A duplicate of the definition, named `<codeName>-copy` as the family does. */
  async copy(id: string): Promise<string> {
    const { id: _, ...values } = await this.detail(id);
    const newId = nextId();
    await this.repository.insert(newId, { ...values, code_name: `${values.code_name}-copy`.slice(0, 64) });
    return newId;
  }

  /** The zip of everything the definitions `ids` generate, by path from the repository root. */
  async generate(ids: string[]): Promise<Uint8Array> {
    const rows = await this.repository.findMany(ids);
    if (rows.length !== ids.length) throw notFound("代码生成配置不存在");
    const names = rows.map((r) => r.resource_name);
    if (new Set(names).size !== names.length) throw badRequest("ids: 所选配置的资源名重复");
    const files: Record<string, string> = {};
    for (const row of rows) {
      await this.refuseClash(row);
      const session = await this.datasources.open(row.datasource_id);
      try {
        const table = await readTable(session, row.table_name);
        if (!table) throw badRequest(`tableName: 数据源中没有表 ${row.table_name}`);
        Object.assign(files, generateResource(specOf(row), table));
      } catch (error) {
        if (error instanceof GenerationError) throw badRequest(error.message);
        throw error;
      } finally {
        await session.close();
      }
    }
    files["packages/contracts/src/resources/generated/index.ts"] = generatedIndex([
      ...Object.keys(generatedResources),
      ...names,
    ]);
    return zipSync(Object.fromEntries(Object.entries(files).map(([path, text]) => [path, strToU8(text)])));
  }

  private async read(input: Record<string, unknown>): Promise<CodeValues> {
    const datasourceId = formText(input, "datasourceId", 20, true);
    if (!/^\d+$/.test(datasourceId)) throw badRequest("datasourceId: 格式错误");
    await this.datasources.detail(datasourceId).catch(() => {
      throw badRequest("datasourceId: 数据源不存在");
    });
    const tableName = formText(input, "tableName", 63, true).toLowerCase();
    if (!IDENTIFIER.test(tableName)) throw badRequest("tableName: 只能由小写字母、数字和下划线组成");
    const tablePrefix = formText(input, "tablePrefix", 64, false).toLowerCase();
    if (tablePrefix && !IDENTIFIER.test(tablePrefix)) throw badRequest("tablePrefix: 格式错误");
    const pkName = formText(input, "pkName", 32, false) || "id";
    if (!IDENTIFIER.test(pkName)) throw badRequest("pkName: 格式错误");
    const serviceName = formText(input, "serviceName", 64, true);
    if (!SERVICE.test(serviceName))
      throw badRequest("serviceName: 只能是小写字母、数字和连字符,如 blade-demo");
    const stripped =
      tablePrefix && tableName.startsWith(tablePrefix) ? tableName.slice(tablePrefix.length) : tableName;
    const resourceName = formText(input, "resourceName", 40, false) || camelCase(stripped.replace(/^_+/, ""));
    if (!RESOURCE.test(resourceName)) throw badRequest("resourceName: 须以小写字母开头,只含字母和数字");
    const resourcePath = formText(input, "resourcePath", 64, false) || resourceName.toLowerCase();
    if (!PATH.test(resourcePath)) throw badRequest("resourcePath: 只能是小写字母、数字和连字符");
    const codeName = formText(input, "codeName", 64, true);
    const codeNameEn = formText(input, "codeNameEn", 64, false);
    for (const [field, value] of [
      ["codeName", codeName],
      ["codeNameEn", codeNameEn],
    ] as const)
      if (/[\r\n*/\\]/.test(value)) throw badRequest(`${field}: 不能含换行、星号、斜杠`);
    return {
      datasource_id: datasourceId,
      service_name: serviceName,
      code_name: codeName,
      code_name_en: codeNameEn,
      table_name: tableName,
      table_prefix: tablePrefix,
      pk_name: pkName,
      resource_name: resourceName,
      resource_path: resourcePath,
      list_fields: csvColumns(input, "listFields"),
      search_fields: csvColumns(input, "searchFields"),
      form_fields: csvColumns(input, "formFields"),
    };
  }

  /** A generated resource must not take the name, table, route or menu of one that exists. */
  private async refuseClash(v: CodeValues): Promise<void> {
    const defs = Object.values(resources) as ResourceDef[];
    const named = defs.find((d) => d.name.toLowerCase() === v.resource_name.toLowerCase());
    if (named) throw badRequest(`resourceName: 与已有资源 ${named.name} 重名`);
    const onTable = defs.find((d) => d.table === v.table_name);
    if (onTable) throw badRequest(`tableName: 表 ${v.table_name} 已属于资源 ${onTable.name}`);
    if (this.reservedTables.has(v.table_name)) throw badRequest(`tableName: 表 ${v.table_name} 属于系统模块`);
    const base = `/api/${v.service_name}/${v.resource_path}`;
    const routed = defs.find((d) => resourceBase(d) === base);
    if (routed) throw badRequest(`resourcePath: 地址 ${base} 已属于资源 ${routed.name}`);
    const code = menuCodeOfName(v.resource_name);
    const [menu] = await this.db.query(
      "select 1 from sys_menu where code = any($1::text[]) and is_deleted = 0 limit 1",
      [[code, `${code}_add`, `${code}_edit`, `${code}_delete`, `${code}_view`]],
    );
    if (menu) throw badRequest(`resourceName: 菜单编号 ${code} 已存在`);
  }
}

const columnList = (csv: string) => (csv ? csv.split(",") : []);

function specOf(row: CodeRow): CodeSpec {
  return {
    codeName: row.code_name,
    codeNameEn: row.code_name_en,
    serviceName: row.service_name,
    tableName: row.table_name,
    pkName: row.pk_name,
    resourceName: row.resource_name,
    resourcePath: row.resource_path,
    listFields: columnList(row.list_fields),
    searchFields: columnList(row.search_fields),
    formFields: columnList(row.form_fields),
  };
}
