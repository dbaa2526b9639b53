import type { Queryable } from "../../db/client.ts";

export interface CodeRow {
  id: string;
  datasource_id: string;
  service_name: string;
  code_name: string;
  code_name_en: string;
  table_name: string;
  table_prefix: string;
  pk_name: string;
  resource_name: string;
  resource_path: string;
  list_fields: string;
  search_fields: string;
  form_fields: string;
}

export type CodeValues = Omit<CodeRow, "id">;

const COLUMNS =
  "id, datasource_id, service_name, code_name, code_name_en, table_name, table_prefix, pk_name, resource_name, resource_path, list_fields, search_fields, form_fields";

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Reviewed SQL of blade_code (platform-wide definitions, soft deleted). */
export class CodeRepository {
  constructor(private readonly db: Queryable) {}

  async page(
    filter: { codeName?: string | undefined; tableName?: string | undefined },
    size: number,
    offset: number,
  ) {
    const where = `is_deleted = 0 and ($1::text is null or code_name like $1) and ($2::text is null or table_name like $2)`;
    const args = [
      filter.codeName ? likePattern(filter.codeName) : null,
      filter.tableName ? likePattern(filter.tableName) : null,
    ];
    const [rows, counted] = await Promise.all([
      this.db.query<CodeRow>(
        `select ${COLUMNS} from blade_code where ${where} order by id desc limit $3 offset $4`,
        [...args, size, offset],
      ),
      this.db.query<{ total: string }>(`select count(*) as total from blade_code where ${where}`, args),
    ]);
    return { rows, total: Number(counted[0]?.total ?? 0) };
  }

  async find(id: string): Promise<CodeRow | undefined> {
    const [row] = await this.db.query<CodeRow>(
      `select ${COLUMNS} from blade_code where id = $1 and is_deleted = 0`,
      [id],
    );
    return row;
  }

  async findMany(ids: string[]): Promise<CodeRow[]> {
    return this.db.query<CodeRow>(
      `select ${COLUMNS} from blade_code where id = any($1::bigint[]) and is_deleted = 0 order by id`,
      [ids],
    );
  }

  async insert(id: string, v: CodeValues): Promise<void> {
    await this.db.query(
      `insert into blade_code (id, datasource_id, service_name, code_name, code_name_en, table_name, table_prefix,
                               pk_name, resource_name, resource_path, list_fields, search_fields, form_fields)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [id, ...valuesOf(v)],
    );
  }

  async update(id: string, v: CodeValues): Promise<boolean> {
    const rows = await this.db.query(
      `update blade_code set datasource_id = $2, service_name = $3, code_name = $4, code_name_en = $5, table_name = $6,
              table_prefix = $7, pk_name = $8, resource_name = $9, resource_path = $10, list_fields = $11,
              search_fields = $12, form_fields = $13, update_time = now()
        where id = $1 and is_deleted = 0 returning id`,
      [id, ...valuesOf(v)],
    );
    return rows.length > 0;
  }

  async remove(ids: string[]): Promise<void> {
    await this.db.query(
      "update blade_code set is_deleted = 1, update_time = now() where id = any($1::bigint[]) and is_deleted = 0",
      [ids],
    );
  }
}

const valuesOf = (v: CodeValues) => [
  v.datasource_id,
  v.service_name,
  v.code_name,
  v.code_name_en,
  v.table_name,
  v.table_prefix,
  v.pk_name,
  v.resource_name,
  v.resource_path,
  v.list_fields,
  v.search_fields,
  v.form_fields,
];
