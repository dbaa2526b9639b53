import type { Queryable } from "../../db/client.ts";

export interface DatasourceRow {
  id: string;
  name: string;
  driver_class: string;
  url: string;
  username: string;
  /** Cipher text (or empty): never leaves the server. */
  password: string;
  remark: string | null;
  create_time: Date | string;
  update_time: Date | string;
}

export interface DatasourceValues {
  name: string;
  url: string;
  username: string;
  password: string;
  remark: string | null;
}

const COLUMNS = "id, name, driver_class, url, username, password, remark, create_time, update_time";

/** Reviewed SQL of blade_datasource (platform-wide rows, soft deleted). */
export class DatasourceRepository {
  constructor(private readonly db: Queryable) {}

  async page(filter: { name?: string | undefined }, size: number, offset: number) {
    const where = "is_deleted = 0 and ($1::text is null or name = $1)";
    const [rows, counted] = await Promise.all([
      this.db.query<DatasourceRow>(
        `select ${COLUMNS} from blade_datasource where ${where} order by id limit $2 offset $3`,
        [filter.name ?? null, size, offset],
      ),
      this.db.query<{ total: string }>(`select count(*) as total from blade_datasource where ${where}`, [
        filter.name ?? null,
      ]),
    ]);
    return { rows, total: Number(counted[0]?.total ?? 0) };
  }

  all(): Promise<DatasourceRow[]> {
    return this.db.query<DatasourceRow>(
      `select ${COLUMNS} from blade_datasource where is_deleted = 0 order by id limit 1000`,
    );
  }

  async find(id: string): Promise<DatasourceRow | undefined> {
    const [row] = await this.db.query<DatasourceRow>(
      `select ${COLUMNS} from blade_datasource where id = $1 and is_deleted = 0`,
      [id],
    );
    return row;
  }

  async insert(id: string, values: DatasourceValues, userId: string): Promise<void> {
    await this.db.query(
      `insert into blade_datasource (id, name, url, username, password, remark, create_user, update_user)
       values ($1, $2, $3, $4, $5, $6, $7, $7)`,
      [id, values.name, values.url, values.username, values.password, values.remark, userId || null],
    );
  }

  async update(id: string, values: DatasourceValues, userId: string): Promise<boolean> {
    const rows = await this.db.query(
      `update blade_datasource set name = $2, url = $3, username = $4, password = $5, remark = $6,
              update_user = $7, update_time = now()
        where id = $1 and is_deleted = 0 returning id`,
      [id, values.name, values.url, values.username, values.password, values.remark, userId || null],
    );
    return rows.length > 0;
  }

  async remove(ids: string[]): Promise<number> {
    const rows = await this.db.query(
      "update blade_datasource set is_deleted = 1, update_time = now() where id = any($1::bigint[]) and is_deleted = 0 returning id",
      [ids],
    );
    return rows.length;
  }

  /** Whether any live code-generation definition reads from one of these data sources. */
  async inUse(ids: string[]): Promise<boolean> {
    const rows = await this.db.query(
      "select 1 from blade_code where datasource_id = any($1::bigint[]) and is_deleted = 0 limit 1",
      [ids],
    );
    return rows.length > 0;
  }
}
