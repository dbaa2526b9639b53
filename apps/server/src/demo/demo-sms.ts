import { randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import { resources } from "@meterline/contracts";
import type { FieldCipher } from "../crud/field-cipher.ts";
import { readInput } from "../crud/input.ts";
import { ResourceStore } from "../crud/store.ts";
import { encryptValues } from "../crud/write-routes.ts";
import type { Queryable } from "../db/client.ts";
import { serviceUser } from "../modules/auth/current-user.ts";
import { aliyunSignature } from "../modules/sms/aliyun-signature.ts";
import { DEMO_TENANT_ID } from "./demo-site.ts";

/** The demo SMS configuration's code: the one this file owns, rewritten at each start. */
export const DEMO_SMS_CODE = "demo-local";
/** What the server log prints before every message the demo "sends" (the README points here). */
export const DEMO_SMS_PREFIX = "[demo SMS]";

export interface DemoSms {
  url: string;
  close(): Promise<void>;
}

/**
 * A local stand-in for Aliyun SMS (dysmsapi SendSms over HTTP, its signature checked), so a new
 * user of the demo can sign in on the owner page: nothing leaves the machine, and every message
 * is printed to the server log after DEMO_SMS_PREFIX. Started only with the demo data, and the
 * demo tenant uses it only while it has no SMS configuration of its own enabled.
 */
export async function startDemoSms(
  db: Queryable,
  cipher: FieldCipher,
  log: (line: string) => void,
): Promise<DemoSms> {
  const accessKey = "LTAIdemolocal";
  const secretKey = randomBytes(18).toString("base64url");
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
      const { Signature: signature = "", ...signed } = params;
      const expected = Buffer.from(aliyunSignature(req.method ?? "POST", signed, secretKey));
      const given = Buffer.from(signature);
      const valid =
        params.AccessKeyId === accessKey &&
        expected.length === given.length &&
        timingSafeEqual(expected, given);
      const answer = valid
        ? { RequestId: randomUUID(), Code: "OK", Message: "OK", BizId: randomBytes(8).toString("hex") }
        : {
            RequestId: randomUUID(),
            Code: "SignatureDoesNotMatch",
            Message: "Specified signature is not matched.",
          };
      if (valid) log(`${DEMO_SMS_PREFIX} to ${params.PhoneNumbers}: ${params.TemplateParam ?? "{}"}`);
      res.writeHead(valid ? 200 : 400, { "content-type": "application/json" });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  await configureDemoTenant(db, cipher, { accessKey, secretKey, endpoint: url });
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Points the demo tenant's own demo configuration at this start's double; enables it if none is. */
async function configureDemoTenant(
  db: Queryable,
  cipher: FieldCipher,
  settings: { accessKey: string; secretKey: string; endpoint: string },
) {
  const def = resources.sms;
  const body = {
    category: 3,
    smsCode: DEMO_SMS_CODE,
    templateId: "SMS_DEMO",
    signName: "演示物业",
    ...settings,
    remark: "演示:本机短信模拟服务,短信内容打印在服务器日志中",
  };
  const store = new ResourceStore(db, def);
  const user = serviceUser(DEMO_TENANT_ID, "demo", { realName: "演示数据" });
  const [row] = await db.query<{ id: string }>(
    "select id::text as id from blade_sms where tenant_id = $1 and sms_code = $2 and is_deleted = 0",
    [DEMO_TENANT_ID, DEMO_SMS_CODE],
  );
  let id = row?.id;
  if (id)
    await store.update(
      id,
      encryptValues(readInput(def, body, "update", "Asia/Shanghai"), cipher),
      user,
      (sql) => [`t.tenant_id = ${sql.bind(DEMO_TENANT_ID)}`],
    );
  else
    id = await store.insert(
      encryptValues(readInput(def, body, "create", "Asia/Shanghai"), cipher),
      user,
      DEMO_TENANT_ID,
    );
  // Enabled only when the tenant has not enabled a configuration of its own.
  await db.query(
    `update blade_sms set status = 2 where id = $1 and tenant_id = $2
        and not exists (select 1 from blade_sms o where o.tenant_id = $2 and o.status = 2 and o.is_deleted = 0)`,
    [id, DEMO_TENANT_ID],
  );
}
