import assert from "node:assert/strict";
import { test } from "node:test";
import { allowedEndpoints, endpointOf, parseDatasourceUrl } from "./datasource-address.ts";

test("the family's jdbc form and postgres urls name a host, a port and a database", () => {
  assert.deepEqual(parseDatasourceUrl("jdbc:postgresql://DB.example:6432/meter_line"), {
    host: "db.example",
    port: 6432,
    database: "meter_line",
  });
  assert.deepEqual(parseDatasourceUrl("postgres://10.0.0.5/app"), {
    host: "10.0.0.5",
    port: 5432,
    database: "app",
  });
  const v6 = parseDatasourceUrl("postgresql://[::1]:5433/app");
  assert.ok(typeof v6 !== "string");
  assert.equal(endpointOf(v6), "[::1]:5433");
});

test("credentials, options, sockets and other drivers never pass", () => {
  for (const url of [
    "postgres://user:pw@10.0.0.5/app",
    "postgres://10.0.0.5/app?host=169.254.169.254",
    "postgres://10.0.0.5/app?sslmode=disable",
    "postgres://%2Fvar%2Frun/app",
    "postgres:///var/run/postgresql/app",
    "jdbc:mysql://10.0.0.5:3306/app",
    "http://10.0.0.5/app",
    "postgres://10.0.0.5:70000/app",
    "postgres://10.0.0.5/a/b",
  ])
    assert.equal(typeof parseDatasourceUrl(url), "string", url);
});

test("the allow list: the administrator's entries, else the server's own database host, else nothing", () => {
  assert.deepEqual([...allowedEndpoints("db1:5432, 10.0.0.7", undefined)], ["db1:5432", "10.0.0.7:5432"]);
  assert.deepEqual(
    [...allowedEndpoints(undefined, "postgres://u:p@pg.internal:6543/meterline")],
    ["pg.internal:6543"],
  );
  assert.deepEqual([...allowedEndpoints(undefined, "postgres://[::1]/meterline")], ["[::1]:5432"]);
  assert.deepEqual([...allowedEndpoints(undefined, undefined)], []);
  assert.throws(() => allowedEndpoints("db1:5432/x", undefined));
});
