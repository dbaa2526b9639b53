import type { Queryable } from "../../db/client.ts";

export interface RegionRow {
  code: string;
  parent_code: string;
  ancestors: string;
  name: string;
  region_level: number;
  sort: number;
  remark: string | null;
  has_children?: boolean;
}

const COLUMNS = `code, parent_code, ancestors, name, region_level, sort, remark,
  exists (select 1 from sys_region c where c.parent_code = r.code) as has_children`;

/** Regions are read by level: one parent's children at a time. */
export class RegionRepository {
  constructor(private readonly db: Queryable) {}

  children(parentCode: string): Promise<RegionRow[]> {
    return this.db.query<RegionRow>(
      `select ${COLUMNS} from sys_region r where parent_code = $1 order by sort, code`,
      [parentCode],
    );
  }

  async one(code: string): Promise<RegionRow | undefined> {
    const rows = await this.db.query<RegionRow>(`select ${COLUMNS} from sys_region r where code = $1`, [
      code,
    ]);
    return rows[0];
  }

  async page(filters: { name?: string; code?: string; level?: number }, size: number, offset: number) {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filters.name) where.push(`name like $${params.push(`%${filters.name}%`)}`);
    if (filters.code) where.push(`code like $${params.push(`${filters.code}%`)}`);
    if (filters.level !== undefined) where.push(`region_level = $${params.push(filters.level)}`);
    const clause = where.length ? `where ${where.join(" and ")}` : "";
    const [{ n } = { n: "0" }] = await this.db.query<{ n: string }>(
      `select count(*) as n from sys_region r ${clause}`,
      params,
    );
    const rows = await this.db.query<RegionRow>(
      `select ${COLUMNS} from sys_region r ${clause} order by code limit $${params.length + 1} offset $${params.length + 2}`,
      [...params, size, offset],
    );
    return { total: Number(n), rows };
  }

  /** Inserts or updates; the level-specific code and name pair follows the level (contract §10.8). */
  async save(row: { code: string; parent: RegionRow; name: string; sort: number; remark: string | null }) {
    const level = row.parent.region_level + 1;
    const pairs = ["province", "city", "district", "town", "village"];
    const own = pairs[level - 1];
    const inherited = await this.db.query<Record<string, string | null>>(
      "select province_code, province_name, city_code, city_name, district_code, district_name, town_code, town_name from sys_region where code = $1",
      [row.parent.code],
    );
    const values: Record<string, unknown> = { ...(inherited[0] ?? {}) };
    if (own) {
      values[`${own}_code`] = row.code;
      values[`${own}_name`] = row.name;
    }
    const names = Object.keys(values);
    await this.db.query(
      `insert into sys_region (code, parent_code, ancestors, name, region_level, sort, remark${names.map((n) => `, ${n}`).join("")})
       values ($1, $2, $3, $4, $5, $6, $7${names.map((_, i) => `, $${i + 8}`).join("")})
       on conflict (code) do update set name = excluded.name, sort = excluded.sort, remark = excluded.remark`,
      [
        row.code,
        row.parent.code,
        `${row.parent.ancestors},${row.parent.code}`,
        row.name,
        level,
        row.sort,
        row.remark,
        ...Object.values(values),
      ],
    );
  }

  /**
   * A region and everything under it (codes extend their parent's), or every region without a
   * root; at most `limit` rows, parents first.
   */
  under(root: string | undefined, limit: number): Promise<RegionRow[]> {
    const where = root ? "where code = $2 or ancestors like '%,' || $2 || '%' or ancestors = $2" : "";
    return this.db.query<RegionRow>(
      `select ${COLUMNS} from sys_region r ${where} order by region_level, sort, code limit $1`,
      root ? [limit, root] : [limit],
    );
  }

  async remove(code: string) {
    await this.db.query("delete from sys_region where code = $1", [code]);
  }
}
