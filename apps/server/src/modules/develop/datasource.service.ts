import pg from "pg";
import { type ApiError, badRequest, notFound } from "../../contract/errors.ts";
import { type FieldCipher, isMask, MASK } from "../../crud/field-cipher.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { DatasourceRepository, type DatasourceRow, type DatasourceValues } from "./datasource.repository.ts";
import { type DatasourceAddress, endpointOf, parseDatasourceUrl } from "./datasource-address.ts";

/** How long a connection attempt to another server may take before it is given up. */
const CONNECT_TIMEOUT_MS = 5_000;
/** How long one statement there may run (introspection reads a catalogue: it is quick or stuck). */
const STATEMENT_TIMEOUT_MS = 10_000;

/** A way to run read-only catalogue queries through a data source, closed when done. */
export interface DatasourceSession extends Queryable {
  close(): Promise<void>;
}

/** A data source as answered: the password only as a mask saying whether one is stored. */
export function datasourceView(row: DatasourceRow) {
  return {
    id: row.id,
    name: row.name,
    driverClass: row.driver_class,
    url: row.url,
    username: row.username,
    password: row.password ? MASK : "",
    remark: row.remark ?? "",
  };
}

/** Reasons a connection failed, in words an administrator can act on; never the driver's text. */
function connectFailure(error: unknown): ApiError {
  const code = (error as { code?: string }).code;
  if (code === "28P01" || code === "28000") return badRequest("连接失败: 用户名或密码错误");
  if (code === "3D000") return badRequest("连接失败: 数据库不存在");
  const message = error instanceof Error ? error.message : "";
  if (/timeout/i.test(message)) return badRequest("连接失败: 连接超时");
  return badRequest("连接失败: 无法连接到数据库服务器");
}

/**
 * Data sources: connection settings to PostgreSQL databases (the server's own when the url is
 * empty). A connection is only ever opened to a `host:port` the administrator allowed
 * (DATASOURCE_ALLOWED_HOSTS), checked before anything touches the network: data sources must not
 * become a way to probe the server's neighbourhood.
 */
export class DatasourceService {
  private readonly repository: DatasourceRepository;

  constructor(
    private readonly db: Db,
    private readonly cipher: FieldCipher,
    private readonly allowed: ReadonlySet<string>,
  ) {
    this.repository = new DatasourceRepository(db);
  }

  page(name: string | undefined, size: number, offset: number) {
    return this.repository.page({ name }, size, offset);
  }

  all() {
    return this.repository.all();
  }

  async detail(id: string): Promise<DatasourceRow> {
    const row = await this.repository.find(id);
    if (!row) throw notFound("数据源不存在");
    return row;
  }

  /** Creates (no id) or updates; a masked or empty password keeps the stored one. */
  async submit(input: Record<string, unknown>, userId: string): Promise<string> {
    const id = typeof input.id === "string" && input.id ? input.id : undefined;
    const existing = id ? await this.repository.find(id) : undefined;
    if (id && !existing) throw notFound("数据源不存在");
    const name = formText(input, "name", 100, true);
    const url = formText(input, "url", 500, false);
    if (url) this.addressOf(url);
    const password = formText(input, "password", 50, false);
    const values: DatasourceValues = {
      name,
      url,
      username: formText(input, "username", 50, false),
      password: password && !isMask(password) ? this.cipher.encrypt(password) : (existing?.password ?? ""),
      remark: formText(input, "remark", 255, false) || null,
    };
    if (existing) {
      await this.repository.update(existing.id, values, userId);
      return existing.id;
    }
    const newId = nextId();
    await this.repository.insert(newId, values, userId);
    return newId;
  }

  async remove(ids: string[]): Promise<void> {
    if (await this.repository.inUse(ids)) throw badRequest("ids: 数据源正被代码生成使用,不能删除");
    await this.repository.remove(ids);
  }

  /**
   * Tries the settings given (a form not saved yet), filling a masked password from the stored row
   * `id`; answers the server version on success.
   */
  async testConnection(input: Record<string, unknown>): Promise<string> {
    const id = typeof input.id === "string" && input.id ? input.id : undefined;
    const stored = id ? await this.detail(id) : undefined;
    const url = input.url === undefined ? (stored?.url ?? "") : formText(input, "url", 500, false);
    const username =
      input.username === undefined ? (stored?.username ?? "") : formText(input, "username", 50, false);
    const given = input.password === undefined ? "" : formText(input, "password", 50, false);
    const password = given && !isMask(given) ? given : this.storedPassword(stored);
    const session = await this.connect({ url, username, password });
    try {
      const [row] = await session.query<{ version: string }>(
        "select current_setting('server_version') as version",
      );
      return row?.version ?? "";
    } finally {
      await session.close();
    }
  }

  /** Opens the data source `id` for reading its catalogue. */
  async open(id: string): Promise<DatasourceSession> {
    const row = await this.repository.find(id);
    if (!row) throw badRequest("datasourceId: 数据源不存在");
    return this.connect({ url: row.url, username: row.username, password: this.storedPassword(row) });
  }

  private storedPassword(row: DatasourceRow | undefined): string {
    if (!row?.password) return "";
    const plain = this.cipher.decrypt(row.password);
    if (plain === undefined) throw badRequest("password: 已存的密码无法解密,请重新填写");
    return plain;
  }

  /** The url's server, if the allow list names it; refused with the reason otherwise. */
  private addressOf(url: string): DatasourceAddress {
    const address = parseDatasourceUrl(url);
    if (typeof address === "string") throw badRequest(`url: ${address}`);
    if (!this.allowed.has(endpointOf(address)))
      throw badRequest(`url: 不允许连接 ${endpointOf(address)},请由管理员在 DATASOURCE_ALLOWED_HOSTS 中放行`);
    return address;
  }

  private async connect(settings: {
    url: string;
    username: string;
    password: string;
  }): Promise<DatasourceSession> {
    if (!settings.url) {
      // The server's own database: its own connection, nothing new is opened.
      return { query: (sql, params) => this.db.query(sql, params), close: async () => {} };
    }
    const address = this.addressOf(settings.url);
    const client = new pg.Client({
      host: address.host,
      port: address.port,
      database: address.database,
      user: settings.username,
      password: settings.password,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      statement_timeout: STATEMENT_TIMEOUT_MS,
      query_timeout: STATEMENT_TIMEOUT_MS,
      application_name: "meterline-datasource",
    });
    // A server that drops the connection later must not take the process down with an unhandled error.
    client.on("error", () => {});
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => {});
      throw connectFailure(error);
    }
    return {
      query: async <T>(sql: string, params?: readonly unknown[]) => {
        try {
          return (await client.query(sql, params as unknown[])).rows as T[];
        } catch (error) {
          // Connected, but the catalogue could not be read (rights, a timeout): the reason, not the text.
          const code = (error as { code?: string }).code;
          throw badRequest(
            code === "42501" ? "读取数据源失败: 该用户无权读取表结构" : "读取数据源失败: 数据库没有回答",
          );
        }
      },
      close: () => client.end().catch(() => {}),
    };
  }
}

/** A text field of a form, trimmed and bounded; the message names the field. */
export function formText(
  input: Record<string, unknown>,
  name: string,
  max: number,
  required: boolean,
): string {
  const value = input[name];
  if (value !== undefined && value !== null && typeof value !== "string" && typeof value !== "number")
    throw badRequest(`${name}: 格式错误`);
  const trimmed = value === undefined || value === null ? "" : String(value).trim();
  if (required && !trimmed) throw badRequest(`${name}: 不能为空`);
  if (trimmed.length > max) throw badRequest(`${name}: 长度不能超过 ${max}`);
  return trimmed;
}
