import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import net from "node:net";
import { after, before, describe, test } from "node:test";
import { type FleetHandle, planFleet, startFleet } from "@meterline/simulator";
import { type BalancedLink, TcpBalancer } from "../../gateway/test/tcp-balancer.ts";
import { md5Hex } from "../src/modules/auth/password.ts";
import {
  type Child,
  exited,
  GATEWAY_ENTRY as GATEWAY,
  run,
  SERVER_ENTRY as SERVER,
  stop,
  waitFor,
} from "./child-processes.ts";
import { addUser } from "./fixtures.ts";
import { ADMIN_PASSWORD, freePort, startTestServer, type TestServer } from "./helpers.ts";
import { registerFleet } from "./registry-fixtures.ts";

const PLAN = {
  meters: 18,
  dtus: 6,
  waterRatio: 0,
  prepaidRatio: 0,
  dlt1997Ratio: 0,
  seed: "gateway-takeover",
} as const;
const LEASE_TTL_MS = 3_000;
const CLIENT_SECRET = randomBytes(18).toString("base64url");
const CLIENT = `Basic ${Buffer.from(`saber:${CLIENT_SECRET}`).toString("base64")}`;
/** The bound the issue sets for taking over a DTU whose old session died without a FIN. */
const HALF_OPEN_BOUND_MS = 5_000;

// Several gateway processes share collectors through PostgreSQL leases and NOTIFY: it runs when
// TEST_DATABASE_URL names a server, as CI's does.
describe("two API servers and two gateways behind a TCP balancer share the fleet", {
  skip: !process.env.TEST_DATABASE_URL,
  timeout: 300_000,
}, () => {
  let server: TestServer;
  let fleet: FleetHandle | undefined;
  let balancer: TcpBalancer | undefined;
  const apis: Child[] = [];
  const gateways: (Child | undefined)[] = [undefined, undefined];
  const gatewayPorts: number[] = [];
  const meterIds = new Map<string, string>(); // address → id
  const collectorOfMeter = new Map<string, string>(); // address → DTU id
  let apiBases: string[] = [];
  let token = "";

  const startGateway = (index: number) => {
    gateways[index] = run(GATEWAY, {
      DATABASE_URL: server.databaseUrl!,
      DATA_ENCRYPTION_KEY: server.dataKey,
      GATEWAY_PORT: String(gatewayPorts[index]),
      GATEWAY_HOST: "127.0.0.1",
      GATEWAY_LEASE_TTL_MS: String(LEASE_TTL_MS),
      // A session that dies silently would only end after 3 × 20 s of missed heartbeats.
      GATEWAY_HEARTBEAT_INTERVAL_MS: "20000",
      GATEWAY_TAKEOVER_WAIT_MS: "4000",
      GATEWAY_REBALANCE_INTERVAL_MS: "1000",
      GATEWAY_REBALANCE_BATCH: "2",
      GATEWAY_REQUEST_TIMEOUT_MS: "1500",
      POLL_INTERVAL_SECONDS: "10",
    });
    return gateways[index]!;
  };
  const ownerOf = (child: Child) => `:${child.process.pid}:`;
  const leases = () =>
    server.db.query<{ collector_id: string; owner: string }>(
      "select collector_id, owner from gateway_lease where expires_at > now() order by collector_id",
    );
  const heldBy = async (child: Child) =>
    (await leases()).filter((lease) => lease.owner.includes(ownerOf(child))).map((l) => l.collector_id);
  const switchOff = async (address: string, api: number) => {
    const res = await fetch(`${apiBases[api % apiBases.length]}/api/blade-pms/message/switch`, {
      method: "POST",
      headers: { authorization: CLIENT, "blade-auth": `bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ meterId: meterIds.get(address), switchType: 2 }),
    });
    assert.equal(res.status, 200, await res.text());
  };
  const diagnose = () =>
    [...apis, ...gateways].map((child, i) => `--- process ${i}\n${child?.output() ?? ""}`).join("\n");

  before(async () => {
    server = await startTestServer();
    const admin = (await server.login()).access_token;
    const plan = planFleet(PLAN);
    const registered = await registerFleet(server, admin, plan);
    for (const [address, id] of registered.meterIds) meterIds.set(address, id);
    for (const [address, dtu] of registered.collectorOfMeter) collectorOfMeter.set(address, dtu);
    const apiPorts = [await freePort(), await freePort()];
    for (const port of apiPorts)
      apis.push(
        run(SERVER, {
          DATABASE_URL: server.databaseUrl!,
          JWT_SECRET: server.jwtSecret,
          DATA_ENCRYPTION_KEY: server.dataKey,
          PORT: String(port),
          // A server on PostgreSQL is production: it names its secrets (the administrator exists already).
          ADMIN_PASSWORD: randomBytes(18).toString("base64url"),
          CLIENT_SECRET: CLIENT_SECRET,
          GATEWAY_EMBEDDED: "0",
          DEMO_DATA: "0",
          CONSOLE_DIST: "/nonexistent",
        }),
      );
    apiBases = apiPorts.map((port) => `http://127.0.0.1:${port}`);
    gatewayPorts.push(await freePort(), await freePort());
    startGateway(0);
    startGateway(1);
    for (const [i, base] of apiBases.entries())
      await waitFor(`the API server at ${base}`, 120_000, async () => {
        if (apis[i]!.process.exitCode !== null) assert.fail(`API server ${i} exited:\n${apis[i]!.output()}`);
        const up = await fetch(`${base}/api/health`).then(
          (r) => r.ok,
          () => false,
        );
        return up ? true : undefined;
      });
    const login = await fetch(
      `${apiBases[1]}/api/blade-auth/oauth/token?tenantId=000000&username=admin&password=${md5Hex(ADMIN_PASSWORD)}&grant_type=password&scope=all`,
      { method: "POST", headers: { authorization: CLIENT, "tenant-id": "000000" } },
    );
    assert.equal(login.status, 200, `${await login.clone().text()}\n${diagnose()}`);
    token = ((await login.json()) as { access_token: string }).access_token;
    balancer = new TcpBalancer(gatewayPorts.map((port) => ({ host: "127.0.0.1", port })));
    const front = await balancer.listen();
    // Both gateways listen before the fleet dials, so the balancer spreads the DTUs over both.
    await waitFor("both gateways listening", 120_000, async () => {
      const up = await Promise.all(
        gatewayPorts.map(
          (port) =>
            new Promise<boolean>((resolve) => {
              const probe = net.connect({ host: "127.0.0.1", port });
              probe.once("connect", () => {
                probe.destroy();
                resolve(true);
              });
              probe.once("error", () => resolve(false));
            }),
        ),
      );
      return up.every(Boolean) ? true : undefined;
    });
    fleet = await startFleet({
      ...PLAN,
      gateway: front,
      replyDelayMs: 150,
      heartbeatIntervalMs: 10_000,
      reconnectDelayMs: 200,
    });
  });

  after(async () => {
    await fleet?.close();
    await balancer?.close();
    await Promise.all([...apis, ...gateways].map((child) => stop(child)));
    await server.close();
  });

  test("a sign-out and a disabled user on one API server are refused at once by the other", async () => {
    const account = "clerk";
    const password = "Clerk-pw-2026";
    const userId = await addUser(server.db, { tenantId: "000000", account, password, roleIds: ["2"] });
    const signIn = (api: number) =>
      fetch(
        `${apiBases[api]}/api/blade-auth/oauth/token?tenantId=000000&username=${account}&password=${md5Hex(password)}&grant_type=password&scope=all`,
        { method: "POST", headers: { authorization: CLIENT, "tenant-id": "000000" } },
      );
    const tokenAt = async (api: number) => {
      const res = await signIn(api);
      assert.equal(res.status, 200, await res.clone().text());
      return ((await res.json()) as { access_token: string }).access_token;
    };
    const userInfo = (api: number, bearer: string) =>
      fetch(`${apiBases[api]}/api/blade-auth/oauth/user-info`, {
        headers: { authorization: CLIENT, "blade-auth": `bearer ${bearer}` },
      }).then((res) => res.status);

    // Signed in on server 0, seen by server 1; signed out on server 0, refused by server 1.
    const first = await tokenAt(0);
    assert.equal(await userInfo(1, first), 200);
    const out = await fetch(`${apiBases[0]}/api/blade-auth/oauth/logout`, {
      headers: { authorization: CLIENT, "blade-auth": `bearer ${first}` },
    });
    assert.equal(out.status, 200, await out.text());
    await waitFor("the sign-out seen by server 1", 2_000, async () =>
      (await userInfo(1, first)) === 401 ? true : undefined,
    );

    // Disabled through server 0: its session on server 1 ends, and server 1 refuses a new sign-in.
    const second = await tokenAt(1);
    assert.equal(await userInfo(1, second), 200);
    const disable = await fetch(`${apiBases[0]}/api/blade-user/update`, {
      method: "POST",
      headers: { authorization: CLIENT, "blade-auth": `bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ id: userId, status: 0 }),
    });
    assert.equal(disable.status, 200, await disable.text());
    await waitFor("the disabled user's session ended on server 1", 2_000, async () =>
      (await userInfo(1, second)) === 401 ? true : undefined,
    );
    assert.notEqual((await signIn(1)).status, 200);
  });

  test("half-open session, kill -9 under commands, rejoin: taken over in bound, every command once", async (t) => {
    const [a, b] = gateways as [Child, Child];
    // 1. All six collectors leased, spread over both gateways.
    await waitFor("all collectors leased to both gateways", 60_000, async () => {
      const [onA, onB] = [await heldBy(a), await heldBy(b)];
      return onA.length + onB.length === 6 && onA.length > 0 && onB.length > 0 ? true : undefined;
    }).catch((error: Error) => assert.fail(`${error.message}\n${diagnose()}`));

    // 2. A DTU's link dies without a FIN; it redials and the balancer sends it to the other gateway.
    const victim = balancer!.links.find(
      (link) => link.collectorId && balancer!.live(link.collectorId).length === 1,
    )!;
    const id = victim.collectorId!;
    const holder = victim.upstream === 0 ? a : b;
    const other = victim.upstream === 0 ? b : a;
    balancer!.steerNext(1 - victim.upstream);
    const silencedAt = Date.now();
    balancer!.silence(victim);
    await waitFor(`${id} taken over by the other gateway`, HALF_OPEN_BOUND_MS, async () =>
      (await heldBy(other)).includes(id) ? true : undefined,
    ).catch((error: Error) => assert.fail(`${error.message}\n${diagnose()}`));
    const tookMs = Date.now() - silencedAt;
    assert.ok(!(await heldBy(holder)).includes(id));
    await waitFor("the stale session dropped by its holder", HALF_OPEN_BOUND_MS, async () =>
      victim.upstreamClosedAt !== undefined ? true : undefined,
    );
    assert.ok(tookMs <= HALF_OPEN_BOUND_MS, `half-open takeover took ${tookMs} ms`);
    t.diagnostic(`half-open session taken over in ${tookMs} ms`);

    // 3. Relay commands on the collectors of one gateway, through both API servers; it is killed
    // with SIGKILL while some are on the wire, some claimed, and more are queued after it died.
    const doomed = await heldBy(a);
    const targets = [...collectorOfMeter]
      .filter(([, dtu]) => doomed.includes(dtu))
      .map(([address]) => address);
    const lastPerCollector = new Set(
      doomed.map((dtu) => targets.findLast((t) => collectorOfMeter.get(t) === dtu)),
    );
    const before = targets.filter((address) => !lastPerCollector.has(address));
    const afterKill = targets.filter((address) => lastPerCollector.has(address));
    assert.ok(before.length > 0 && afterKill.length > 0);
    await Promise.all(before.map((address, i) => switchOff(address, i)));
    const beforeIds = before.map((address) => meterIds.get(address)!);
    await waitFor("a command on the wire at the doomed gateway", 20_000, async () => {
      const [row] = await server.db.query<{ n: number }>(
        "select count(*)::int as n from pms_meter_command where meter_id = any($1::bigint[]) and state = 'sent' and claimed_by like $2",
        [beforeIds, `%${ownerOf(a)}%`],
      );
      return row!.n > 0 ? true : undefined;
    });
    const states = await server.db.query<{ state: string; claimed: boolean }>(
      "select state, claimed_by is not null as claimed from pms_meter_command where meter_id = any($1::bigint[])",
      [beforeIds],
    );
    a.process.kill("SIGKILL");
    const killedAt = Date.now();
    await exited(a);
    await Promise.all(afterKill.map((address, i) => switchOff(address, i + 1)));
    assert.ok(
      states.some((s) => s.state === "queued" && s.claimed),
      `a claimed command waited at the killed gateway: ${JSON.stringify(states)}`,
    );

    // Its collectors are taken within the lease bound (plus a redial), every command settles soon
    // after, not a claim timeout later.
    await waitFor("the survivor holding every collector", LEASE_TTL_MS + 5_000, async () =>
      (await heldBy(b)).length === 6 ? true : undefined,
    ).catch((error: Error) => assert.fail(`${error.message}\n${diagnose()}`));
    t.diagnostic(
      `every collector of the killed gateway leased again ${Date.now() - killedAt} ms after the kill`,
    );
    const allIds = targets.map((address) => meterIds.get(address)!);
    const settled = await waitFor("every command settled", LEASE_TTL_MS + 15_000, async () => {
      const rows = await server.db.query<{ meter_id: string; state: string; evidence: string | null }>(
        "select meter_id::text as meter_id, state, evidence from pms_meter_command where meter_id = any($1::bigint[])",
        [allIds],
      );
      const final = rows.every((row) => row.state === "success" || row.state === "fail");
      return rows.length === allIds.length && final ? rows : undefined;
    }).catch(async (error: Error) => {
      const rows = await server.db.query(
        "select meter_id, state, claimed_by, evidence from pms_meter_command",
      );
      return assert.fail(`${error.message}: ${JSON.stringify(rows)}\n${diagnose()}`);
    });
    t.diagnostic(`${targets.length} relay commands settled ${Date.now() - killedAt} ms after the kill`);
    // Exactly once: a relay operated once for each command that succeeded, and never twice. A
    // command recorded "sent" whose frame died with the gateway (one per DTU at most) fails on the
    // meter's read-back instead of being sent again; every other command succeeds.
    const stateOf = new Map(settled.map((row) => [row.meter_id, row]));
    let failed = 0;
    for (const meter of fleet!.meters()) {
      const row = stateOf.get(meterIds.get(meter.address)!);
      const ops = (meter as { counters: { relayOps: number } }).counters.relayOps;
      if (row?.state === "fail") {
        failed++;
        assert.match(
          row.evidence ?? "",
          /readBack/,
          `a failed command is settled by reading back ${meter.address}`,
        );
      }
      assert.equal(ops, row?.state === "success" ? 1 : 0, `relay operations of ${meter.address}`);
    }
    assert.ok(
      failed <= doomed.length,
      `only a command on the wire at the kill may be lost: ${JSON.stringify(settled)}`,
    );

    // 4. The killed gateway comes back: it is handed a fair share, collectors without commands.
    const rejoined = startGateway(0);
    const rejoinedAt = Date.now();
    await waitFor("a fair share handed back", 30_000, async () => {
      const [mine, theirs] = [await heldBy(rejoined), await heldBy(b)];
      return mine.length === 3 && theirs.length === 3 ? true : undefined;
    }).catch((error: Error) => assert.fail(`${error.message}\n${diagnose()}`));
    t.diagnostic(`rejoined gateway holds 3 of 6 collectors ${Date.now() - rejoinedAt} ms after its start`);

    // No DTU was ever polled by two gateways at once: one link's requests end before the next's begin.
    for (const dtuId of new Set(collectorOfMeter.values())) {
      const spans = balancer!.links
        .filter((link: BalancedLink) => link.collectorId === dtuId && link.requests.length > 0)
        .map((link) => ({
          from: link.requests[0]!.at,
          to: link.requests.at(-1)!.at,
          upstream: link.upstream,
        }))
        .sort((x, y) => x.from - y.from);
      for (let i = 1; i < spans.length; i++)
        assert.ok(spans[i]!.from >= spans[i - 1]!.to, `${dtuId} polled by two gateways at once`);
    }
    assert.equal(fleet!.stats().collisions, 0, "one request in flight per DTU");
  });
});
