import { isIP } from "node:net";

/** Where a data source points: a PostgreSQL server and a database on it. */
export interface DatasourceAddress {
  host: string;
  port: number;
  database: string;
}

const DEFAULT_PORT = 5432;

/**
 * Reads a data source url: `jdbc:postgresql://host:port/db` as the family stores it, or
 * `postgres://` / `postgresql://`. Credentials never travel in the url (they have their own fields),
 * and query options are refused, so nothing but host, port and database can reach the driver.
 */
export function parseDatasourceUrl(url: string): DatasourceAddress | string {
  const text = url.trim().replace(/&amp;/g, "&");
  const match = /^(?:jdbc:postgresql|postgres|postgresql):\/\/([^/?#]+)\/([A-Za-z0-9_-]{1,63})$/.exec(text);
  if (!match) return "只支持 jdbc:postgresql://主机:端口/数据库 形式的地址";
  const authority = match[1]!;
  if (authority.includes("@")) return "地址中不能带用户名或密码";
  const bracketed = /^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/.exec(authority);
  const plain = /^([A-Za-z0-9.-]{1,253})(?::(\d{1,5}))?$/.exec(authority);
  const parts = bracketed ?? plain;
  if (!parts) return "主机名不合法";
  const port = parts[2] === undefined ? DEFAULT_PORT : Number(parts[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return "端口不合法";
  return { host: parts[1]!.toLowerCase(), port, database: match[2]! };
}

/** `host:port` as the allow list spells it; IPv6 hosts in brackets. */
export const endpointOf = (address: Pick<DatasourceAddress, "host" | "port">) =>
  `${isIP(address.host) === 6 ? `[${address.host}]` : address.host}:${address.port}`;

/**
 * The servers an administrator allowed data sources to reach, as `host:port` entries (the port
 * defaults to 5432). Read from DATASOURCE_ALLOWED_HOSTS; without it, only the host of the server's
 * own database (DATABASE_URL), and nothing at all on the embedded database.
 */
export function allowedEndpoints(list: string | undefined, databaseUrl: string | undefined): Set<string> {
  const entries = list?.trim()
    ? list.split(",").map((entry) => entry.trim())
    : databaseUrl
      ? [ownEndpoint(databaseUrl)]
      : [];
  const allowed = new Set<string>();
  for (const entry of entries) {
    if (!entry) continue;
    const parsed = parseDatasourceUrl(`postgres://${entry}/x`);
    if (typeof parsed === "string") throw new Error(`DATASOURCE_ALLOWED_HOSTS: ${entry}`);
    allowed.add(endpointOf(parsed));
  }
  return allowed;
}

function ownEndpoint(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  // An IPv6 host keeps its brackets, as the allow list spells it.
  return `${url.hostname || "localhost"}:${url.port || DEFAULT_PORT}`;
}
