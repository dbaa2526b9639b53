import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import type { ResourceDef } from "@meterline/contracts";
import { call, eventually } from "./registry-helpers.ts";

/** A signed-in console user of the edit suite: the demo tenant's administrator or the platform's. */
export interface Actor {
  who: "tenant" | "platform";
  baseUrl: string;
  token: string;
}

type Row = Record<string, unknown>;

/** The rows of a list or page answer. */
export const recordsOf = (data: unknown): Row[] =>
  Array.isArray(data) ? (data as Row[]) : ((data as { records?: Row[] }).records ?? []);

/** The first rows of a resource's own list verb, as its screen lists them. */
export async function firstRows(actor: Actor, base: string, def: ResourceDef): Promise<Row[]> {
  const data = await call<unknown>(actor.baseUrl, actor.token, `${base}/${def.listVerb}`, {
    query: { current: "1", size: "10" },
  });
  return recordsOf(data);
}

const firstId = async (actor: Actor, path: string) => {
  const [row] = recordsOf(await call<unknown>(actor.baseUrl, actor.token, path, { query: { size: "1" } }));
  if (!row) throw new Error(`${path} lists nothing to link to`);
  return String(row.id);
};

/** A 1×1 PNG: small, and real enough for the server's content check. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

/** Stores an image as the console's upload does (which also records an attachment); answers its link. */
export async function uploadImage(actor: Actor): Promise<string> {
  const form = new FormData();
  form.append("file", new Blob([PNG], { type: "image/png" }), "edit.png");
  const answer = await fetch(`${actor.baseUrl}/api/blade-resource/oss/endpoint/put-file?purpose=avatar`, {
    method: "POST",
    headers: {
      Authorization: `Basic ${Buffer.from("saber:saber_secret").toString("base64")}`,
      "Blade-Auth": `bearer ${actor.token}`,
    },
    body: form,
  });
  const body = (await answer.json()) as { code: number; data: { link: string }; msg: string };
  if (body.code !== 200) throw new Error(`put-file: ${body.msg}`);
  return body.data.link;
}

const submit = (actor: Actor, path: string, body: Row) =>
  call<unknown>(actor.baseUrl, actor.token, path, { body });

/**
 * Writes a local-prepaid meter's prices or alarm limits (only those hold them), and waits until
 * the simulated meters have answered, so the command records stay as they are while edited.
 */
async function writeToMeter(actor: Actor, verb: string, records: string) {
  const meterId = await firstId(actor, "/api/blade-pms/meter/page?meterType=1");
  await submit(actor, `/api/blade-pms/message/${verb}`, { meterIds: [meterId] });
  await eventually(async () => {
    const rows = recordsOf(
      await call<unknown>(actor.baseUrl, actor.token, records, { query: { size: "10" } }),
    );
    assert.ok(rows.length > 0, `${records} lists the commands`);
    assert.deepEqual(
      rows.filter((row) => row.state === "queued" || row.state === "sent"),
      [],
      "every command has settled",
    );
  }, 30_000);
}

/** The first metering node, made (with the first meter as its master) when the site has none. */
async function meteringNodeOf(a: Actor): Promise<string> {
  const [node] = recordsOf(await call<unknown>(a.baseUrl, a.token, "/api/blade-pms/meteringnode/list"));
  if (node) return String(node.id);
  await submit(a, "/api/blade-pms/meteringnode/submit", {
    nodeTitle: "1号楼总表",
    energyType: 1,
    nodeKind: 2,
    masterMeterId: await firstId(a, "/api/blade-pms/meter/page"),
    apportionRule: 1,
    apportionLoss: 0,
    sort: 1,
    remark: "配电室",
  });
  return meteringNodeOf(a);
}

/**
 * A row for each resource the demo site leaves empty, made through the API as an operator would
 * (each with values of every kind its form has: decimals, dates, links, dictionaries).
 */
export const seeds: Partial<Record<string, (actor: Actor) => Promise<unknown>>> = {
  topMenu: (a) =>
    submit(a, "/api/blade-system/topmenu/submit", { code: "edit_top", name: "编辑测试", sort: 3 }),
  notice: (a) =>
    submit(a, "/api/blade-desk/notice/submit", {
      title: "停电检修通知",
      category: 1,
      releaseTime: "2026-11-01 09:30:00",
      content: "<p>11 月 2 日 <b>8:00</b> 起检修</p>",
    }),
  ownerGroup: (a) => submit(a, "/api/blade-pms/ownerGroup/submit", { groupName: "三号宿舍", remark: "整栋" }),
  meteringNode: (a) => meteringNodeOf(a),
  meteringNodeMeter: async (a) => {
    const node = await meteringNodeOf(a);
    const meters = recordsOf(
      await call<unknown>(a.baseUrl, a.token, "/api/blade-pms/meter/page", {
        query: { current: "1", size: "2" },
      }),
    );
    return submit(a, "/api/blade-pms/meteringnodemeter/submit", {
      nodeId: node,
      energyType: 1,
      meterId: String(meters[1]?.id),
      meterRole: 2,
      remark: "走廊照明",
    });
  },
  alarm: (a) =>
    submit(a, "/api/blade-pms/alarm/submit", {
      ruleCode: "offline",
      checkRuleName: "离线超时",
      threshold: "30.50",
      enabled: 1,
    }),
  meterOrigValue: async (a) =>
    submit(a, "/api/blade-pms/meterorigvalue/submit", {
      energyType: 1,
      meterId: await firstId(a, "/api/blade-pms/meter/page"),
      totalValue: "1234.56",
      tipValue: "100.10",
      peakValue: "400.00",
      peaceValue: "500.46",
      lowValue: "234.00",
      readTime: "2026-10-31 23:59:00",
    }),
  wxBind: async (a) =>
    submit(a, "/api/blade-pms/wxbind/submit", {
      ownerId: await firstId(a, "/api/blade-pms/owner/page"),
      openId: "o-edit-0001",
      phone: "13800000001",
      appId: "wxd0000000000demo",
      nickname: "小林",
      bindTime: "2026-09-01 08:00:00",
    }),
  dataWritePrice: (a) => writeToMeter(a, "writePriceBatch", "/api/blade-pms/datawriteprice/page"),
  dataWriteAlarm: (a) => writeToMeter(a, "writeAlarmBatch", "/api/blade-pms/datawritealarm/page"),
  socialProvider: (a) =>
    submit(a, "/api/blade-system/social-provider/submit", {
      source: "oidc",
      displayName: "统一身份认证",
      clientId: "meterline",
      clientSecret: "s3cret-value-1234",
      issuer: "https://id.example.com",
      scopes: "openid profile email",
      redirectUri: "https://console.example.com/oauth/redirect/oidc",
      enabled: 0,
      joinByEmail: 0,
    }),
  alipayConfig: (a) => {
    // Real RSA keys in the forms Alipay's tool gives them: the application's private one, Alipay's public one.
    const application = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const alipay = generateKeyPairSync("rsa", { modulusLength: 2048 });
    return submit(a, "/api/blade-pms/alipayconfig/submit", {
      appId: "2021000117650002",
      environment: "sandbox",
      privateKey: application.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      alipayPublicKey: alipay.publicKey.export({ type: "spki", format: "pem" }).toString(),
      notifyUrl: "https://meter.example/api/blade-pms/alipay/notify",
      maxAmount: "2000.00",
      enabled: 1,
    });
  },
  oss: (a) =>
    submit(a, "/api/blade-resource/oss/submit", {
      category: 1,
      ossCode: "edit-minio",
      endpoint: "http://127.0.0.1:9000",
      bucketName: "meterline",
      accessKey: "minio",
      secretKey: "minio-secret",
      pathStyle: 1,
    }),
  attach: (a) => uploadImage(a),
  dataScope: async (a) =>
    submit(a, "/api/blade-system/data-scope/submit", {
      menuId: await firstId(a, "/api/blade-system/menu/list"),
      resourceCode: "edit_scope",
      scopeName: "本部门",
      scopeColumn: "createDept",
      scopeType: 3,
    }),
  apiScope: async (a) =>
    submit(a, "/api/blade-system/api-scope/submit", {
      menuId: await firstId(a, "/api/blade-system/menu/list"),
      resourceCode: "edit_api",
      scopeName: "读房间",
      scopePath: "/api/blade-pms/room/**",
      scopeType: 1,
    }),
  code: (a) =>
    submit(a, "/api/blade-develop/code/submit", {
      codeName: "试验器材",
      datasourceId: "1",
      tableName: "lab_fixture",
      tablePrefix: "lab_",
      serviceName: "blade-lab",
      resourceName: "fixture",
      resourcePath: "fixture",
    }),
};

/**
 * A user with every kind of value the user form has (an image, a date, an e-mail, a phone, links
 * to roles and departments), in the actor's tenant; answers the id.
 */
export async function seedRichUser(actor: Actor): Promise<string> {
  const avatar = await uploadImage(actor);
  const roleId = await firstId(actor, "/api/blade-system/role/list");
  const deptId = await firstId(actor, "/api/blade-system/dept/list");
  await submit(actor, "/api/blade-user/submit", {
    account: "edit.lin",
    password: "Edit-Pass-2026",
    name: "小林",
    realName: "林小青",
    userType: 1,
    avatar,
    email: "lin@example.com",
    phone: "13900000002",
    birthday: "1990-05-17",
    sex: 2,
    roleId,
    deptId,
    status: 1,
  });
  const [user] = recordsOf(
    await call<unknown>(actor.baseUrl, actor.token, "/api/blade-user/page", {
      query: { account: "edit.lin" },
    }),
  );
  if (!user) throw new Error("the seeded user is not listed");
  return String(user.id);
}
