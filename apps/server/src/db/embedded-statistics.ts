import type { Db } from "./client.ts";

/**
 * The planner's statistics for the embedded database. PostgreSQL's autovacuum keeps them on a
 * server; PGlite runs no autovacuum, so its tables were never analyzed and the planner guessed one
 * row everywhere: the demo's meters by building took 6.9 s that way and 13 ms once analyzed (a
 * nested loop re-reading every room for each meter, against three hash joins).
 *
 * As autovacuum does, only the tables that need it: never analyzed, or grown or shrunk by a fifth
 * since (their pages against those the last analyze counted), so a pass over a settled database is
 * one catalog query. Each table is analyzed by a statement of its own, so the console's requests,
 * queued on the one connection, go between them instead of waiting for a whole pass (3–4 s for
 * every table of the demo's data). Partitions are analyzed as tables; a partitioned parent's own
 * analyze would sample them all again. Answers how many tables were analyzed (`stopping` ends the
 * pass early); nothing on a PostgreSQL server, where autovacuum does it.
 */
export async function analyzeEmbedded(db: Db, stopping: () => boolean = () => false): Promise<number> {
  if (db.kind !== "pglite") return 0;
  const tables = await db.query<{ name: string }>(
    `select name from (
       select quote_ident(n.nspname) || '.' || quote_ident(c.relname) as name, c.reltuples, c.relpages,
              pg_relation_size(c.oid) / current_setting('block_size')::int as pages
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind = 'r' and n.nspname not in ('pg_catalog', 'information_schema')
          and n.nspname not like 'pg_toast%') t
      where reltuples < 0 or abs(pages - relpages) > 8 + relpages / 5
      order by reltuples < 0 desc, name`,
  );
  let analyzed = 0;
  for (const { name } of tables) {
    // A server shutting down stops between tables rather than after the whole pass.
    if (stopping()) break;
    await db.query(`analyze ${name}`);
    analyzed++;
  }
  return analyzed;
}
