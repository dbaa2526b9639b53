import assert from "node:assert/strict";
import { test } from "node:test";
import { type ResourceDef, resources } from "@meterline/contracts";
import { type Db, openDb } from "./client.ts";
import { migrate } from "./migrate.ts";

/** The database, with every statement and transaction it is asked to run written down. */
function recording(db: Db): { db: Db; calls: string[] } {
  const calls: string[] = [];
  const proxy = new Proxy(db, {
    get(target, property, receiver) {
      if (property === "query") {
        return (sql: string, params?: readonly unknown[]) => {
          calls.push(sql);
          return target.query(sql, params);
        };
      }
      if (property === "transaction") {
        return (fn: Parameters<Db["transaction"]>[0]) => {
          calls.push("transaction");
          return target.transaction(fn);
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
  return { db: proxy, calls };
}

test("an up-to-date database costs one query; a changed definition is still applied", async () => {
  const db = await openDb({});
  try {
    const plain: ResourceDef[] = Object.values(resources);
    assert.ok((await migrate(db, plain)).length > 0, "a fresh database gets every migration");

    const again = recording(db);
    assert.deepEqual(await migrate(again.db, plain), []);
    assert.equal(again.calls.length, 1, again.calls.join("\n"));
    assert.doesNotMatch(again.calls[0]!, /transaction|create|alter|insert/i);

    // A definition that declares a new field: the digest differs, so its column is added.
    const [first, ...rest] = plain;
    assert.ok(first);
    const grown: ResourceDef = {
      ...first,
      fields: { ...first.fields, probeNote: { type: "string", maxLength: 20 } },
    };
    const changed = recording(db);
    await migrate(changed.db, [grown, ...rest]);
    assert.ok(changed.calls.includes("transaction"));
    const columns = await db.query<{ column_name: string }>(
      "select column_name from information_schema.columns where table_name = $1 and column_name = 'probe_note'",
      [first.table],
    );
    assert.equal(columns.length, 1, `${first.table}.probe_note was added`);

    // And the grown plan, once applied, is the one an unchanged restart finds up to date.
    const restart = recording(db);
    assert.deepEqual(await migrate(restart.db, [grown, ...rest]), []);
    assert.equal(restart.calls.length, 1);

    // A version whose row is deleted is applied again, digest or not.
    await db.query("delete from schema_migration where version = $1", [`buttons/${first.name}`]);
    assert.deepEqual(await migrate(db, [grown, ...rest]), [`buttons/${first.name}`]);
  } finally {
    await db.close();
  }
});
