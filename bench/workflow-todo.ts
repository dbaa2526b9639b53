/**
 * Work-list benchmark (issue 17): the todo list and the first page of the done list of a user with
 * 100,000 finished and 1,000 open tasks in the tenant, read through the whole stack (token,
 * envelope, joins to instance, definition, user and category), against the first page of a plain
 * resource (post/list) holding as many rows in the same tenant, in the same run.
 *   tsx bench/workflow-todo.ts [--finished 100000] [--open 1000] [--calls 40] [--db postgres|pglite]
 * PostgreSQL: a database on BENCH_POSTGRES_URL's server (default postgres://postgres@127.0.0.1:5432),
 * dropped at the end.
 */
import type { FastifyInstance } from "fastify";
import { buildApp } from "../apps/server/src/app.ts";
import { md5Hex } from "../apps/server/src/modules/auth/password.ts";
import {
  BENCH_ADMIN_PASSWORD,
  count,
  type DatabaseKind,
  fail,
  freshDatabase,
  line,
  machine,
  percentile,
  settings,
  timed,
} from "./money-common.ts";

const options = settings({ finished: "100000", open: "1000", calls: "40", db: "postgres" });
const FINISHED = count(options.finished, "finished");
const OPEN = count(options.open, "open");
const CALLS = count(options.calls, "calls");
const BASIC = `Basic ${Buffer.from("saber:saber_secret").toString("base64")}`;
const TENANT = "000000";

/** One definition and deployment, an instance per task, tasks assigned to the administrator. */
async function fill(db: Awaited<ReturnType<typeof freshDatabase>>["db"]) {
  const [admin] = await db.query<{ id: string }>(
    "select id from sys_user where tenant_id = $1 and account = 'admin' and is_deleted = 0",
    [TENANT],
  );
  if (!admin) fail("no administrator to give the tasks to");
  const ADMIN_ID = admin.id;
  await db.query(
    "insert into wf_deployment (id, tenant_id, name, category) values (7000000, $1, '基准流程', 'flow_1')",
    [TENANT],
  );
  await db.query(
    `insert into wf_definition (id, deployment_id, tenant_id, def_key, version, name, category, resource_name, bpmn_xml)
     values ('Bench:1:7000000', 7000000, $1, 'Bench', 1, '基准流程', 'flow_1', 'bench.bpmn', '')`,
    [TENANT],
  );
  const total = FINISHED + OPEN;
  await db.query(
    `insert into wf_instance (id, tenant_id, definition_id, business_key, start_user, start_time, status)
     select 8000000 + g, $1, 'Bench:1:7000000', 'blade_process_leave:' || g, $2,
            timestamptz '2026-01-01' + g * interval '1 minute', case when g <= $3 then 'finished' else 'running' end
       from generate_series(1, $4::int) g`,
    [TENANT, ADMIN_ID, FINISHED, total],
  );
  await db.query(
    `insert into wf_task (id, tenant_id, instance_id, task_key, name, assignee, state, create_time, claim_time,
                          end_time, comment, pass)
     select 9000000 + g, $1, 8000000 + g, 'approve', '审批', $2,
            case when g <= $3 then 'completed' else 'open' end,
            timestamptz '2026-01-01' + g * interval '1 minute', timestamptz '2026-01-01' + g * interval '1 minute',
            case when g <= $3 then timestamptz '2026-01-01' + g * interval '1 minute' + interval '30 seconds' end,
            case when g <= $3 then '同意' end, case when g <= $3 then true end
       from generate_series(1, $4::int) g`,
    [TENANT, ADMIN_ID, FINISHED, total],
  );
  await db.query(
    `insert into sys_post (id, tenant_id, category, post_code, post_name, sort)
     select 10000000 + g, $1, 4, 'b' || g, '岗位' || g, 1 from generate_series(1, $2::int) g`,
    [TENANT, total],
  );
  await db.query("analyze");
}

async function figures(app: FastifyInstance, token: string, url: string) {
  const headers = { authorization: BASIC, "blade-auth": `bearer ${token}` };
  const first = await app.inject({ method: "GET", url, headers });
  if (first.statusCode !== 200) fail(`${url}: ${first.statusCode} ${first.body.slice(0, 300)}`);
  const samples: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const { value, ms } = await timed(() => app.inject({ method: "GET", url, headers }));
    if (value.statusCode !== 200) fail(`${url}: ${value.statusCode}`);
    samples.push(ms);
  }
  samples.sort((a, b) => a - b);
  return {
    p50: percentile(samples, 0.5),
    p99: percentile(samples, 0.99),
    records: first.json().data.records.length,
  };
}

async function main() {
  const database = await freshDatabase(options.db as DatabaseKind);
  const { db } = database;
  let app: FastifyInstance | undefined;
  try {
    console.log(machine());
    console.log(`database: ${database.where}`);
    const filled = await timed(() => fill(db));
    line(
      `fill ${FINISHED} finished + ${OPEN} open tasks and ${FINISHED + OPEN} posts`,
      filled.ms,
      FINISHED + OPEN,
    );
    app = await buildApp({
      db,
      config: {
        jwtSecret: "b".repeat(64),
        dataKey: "c".repeat(64),
        captchaEnabled: false,
        timeZone: "Asia/Shanghai",
      },
    });
    const login = await app.inject({
      method: "POST",
      url: "/api/blade-auth/oauth/token",
      query: {
        tenantId: TENANT,
        username: "admin",
        password: md5Hex(BENCH_ADMIN_PASSWORD),
        grant_type: "password",
      },
      headers: { authorization: BASIC, "tenant-id": TENANT },
    });
    if (login.statusCode !== 200) fail(`login: ${login.body}`);
    const token = login.json().access_token as string;
    const reference = await figures(app, token, "/api/blade-system/post/list?current=1&size=10");
    const cases: [string, string][] = [
      ["todo-list (all open tasks, not paged)", "/api/blade-flow/work/todo-list"],
      ["done-list page 1 of 10", "/api/blade-flow/work/done-list?current=1&size=10"],
      ["send-list page 1 of 10", "/api/blade-flow/work/send-list?current=1&size=10"],
    ];
    console.log(
      `reference post/list page 1 of 10 over ${FINISHED + OPEN} rows: p50 ${reference.p50.toFixed(1)} ms, p99 ${reference.p99.toFixed(1)} ms`,
    );
    for (const [name, url] of cases) {
      const f = await figures(app, token, url);
      console.log(
        `${name}: ${f.records} records, p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms, ` +
          `p50 ratio to the reference ${(f.p50 / reference.p50).toFixed(2)}`,
      );
    }
  } finally {
    await app?.close();
    await database.drop();
  }
}

await main();
