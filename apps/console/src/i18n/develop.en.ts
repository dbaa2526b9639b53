import type { developZh } from "./develop.zh.ts";

/** Strings of the data source and code generation screens. */
export const developEn: Record<keyof typeof developZh, string> = {
  "menu.tool": "Development",
  "menu.code": "Code generation",
  "menu.datasource": "Data sources",
  "datasource.test": "Test connection",
  "datasource.connected": "Connected (PostgreSQL {version})",
  "datasource.own": "This server's database",
  "datasource.urlHint":
    "For example jdbc:postgresql://host:5432/database; empty means this server's database. Only hosts the administrator allowed in DATASOURCE_ALLOWED_HOSTS can be reached",
  "code.generate": "Generate code",
  "code.copy": "Copy",
  "code.generated": "Generated: unpack the downloaded zip at the repository root",
  "code.copied": "Copied",
  "code.columnsHint": "Column names separated by commas; empty means every column",
  "code.resourceHint":
    "Empty: derived from the table name without its prefix; must not clash with an existing resource",
};
