import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { ApiError, badRequest } from "../../contract/errors.ts";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Db } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { phoneProblem } from "../sms/phone.ts";
import type { SmsProvider } from "../sms/sms-provider.ts";
import { MSG_RESULT } from "../sms/sms-provider.ts";
import { sendMessage } from "../sms/sms-send.ts";

/** The owner page's code rules (issue 20): six digits, five minutes, five tries. */
export const CODE_RULES = {
  digits: 6,
  lifetimeSeconds: 5 * 60,
  tries: 5,
  /** A phone gets a new code at most once a minute, and five an hour. */
  phoneGapSeconds: 60,
  phonePerHour: 5,
  /** One address may ask for ten codes an hour, whatever the phones (a script trying numbers). */
  addressPerHour: 10,
} as const;

const tooMany = (message: string) => new ApiError(429, message);

export function readPhone(raw: unknown): string {
  const phone = typeof raw === "string" ? raw.trim() : "";
  const problem = phoneProblem(phone);
  if (problem) throw badRequest(`phone: ${problem}`);
  return phone;
}

/**
 * Issues and checks the SMS codes of the owner page. Only an HMAC of each code is stored (keyed by
 * the server's secret and the code's id), so a copy of the table does not reveal live codes.
 */
export class SmsCodes {
  constructor(
    private readonly db: Db,
    private readonly cipher: FieldCipher,
    private readonly providers: Readonly<Record<number, SmsProvider>>,
    private readonly secret: string,
  ) {}

  private hash(id: string, code: string): string {
    return createHmac("sha256", this.secret).update(`${id}:${code}`).digest("hex");
  }

  /**
   * Sends a new code to a phone through the tenant's SMS configuration (the one wxconfig names,
   * else the enabled one), within the throttles. The send record keeps the code masked.
   */
  async send(tenantId: string, phone: string, address: string, smsCode: string | undefined): Promise<void> {
    const [counts] = await this.db.query<{
      last_phone: number | null;
      phone_hour: number;
      address_hour: number;
    }>(
      `select (select extract(epoch from now() - max(create_time))::int from pms_h5_code
                where tenant_id = $1 and phone = $2) as last_phone,
              (select count(*)::int from pms_h5_code
                where tenant_id = $1 and phone = $2 and create_time > now() - interval '1 hour') as phone_hour,
              (select count(*)::int from pms_h5_code
                where address = $3 and create_time > now() - interval '1 hour') as address_hour`,
      [tenantId, phone, address],
    );
    if (counts && counts.last_phone !== null && counts.last_phone < CODE_RULES.phoneGapSeconds) {
      throw tooMany(`phone: 验证码已发送,请 ${CODE_RULES.phoneGapSeconds - counts.last_phone} 秒后再试`);
    }
    if (counts && counts.phone_hour >= CODE_RULES.phonePerHour) {
      throw tooMany("phone: 该手机号获取验证码过于频繁,请一小时后再试");
    }
    if (counts && counts.address_hour >= CODE_RULES.addressPerHour) {
      throw tooMany("phone: 获取验证码过于频繁,请稍后再试");
    }
    const id = nextId();
    const code = String(randomInt(0, 10 ** CODE_RULES.digits)).padStart(CODE_RULES.digits, "0");
    // Recorded before sending: a send that fails still counts against the throttles.
    await this.db.query(
      `insert into pms_h5_code (id, tenant_id, phone, code_hash, address, expires_at)
       values ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
      [id, tenantId, phone, this.hash(id, code), address.slice(0, 64), CODE_RULES.lifetimeSeconds],
    );
    const sent = await sendMessage(
      this.db,
      this.cipher,
      this.providers,
      { tenantId },
      { code: smsCode, phones: [phone], params: { code }, recordParams: { code: "******" } },
    );
    if (sent.result === MSG_RESULT.fail) {
      await this.db.query("update pms_h5_code set expires_at = now() where id = $1", [id]);
      throw new ApiError(502, "phone: 短信发送失败,请稍后再试");
    }
  }

  /**
   * Checks a code against the phone's newest live code and spends it when it matches. Every check
   * counts a try first (atomically), so concurrent guesses never get more than five between them.
   */
  async verify(tenantId: string, phone: string, rawCode: unknown): Promise<void> {
    const code = typeof rawCode === "string" ? rawCode.trim() : "";
    if (!/^\d{6}$/.test(code)) throw badRequest("code: 请输入 6 位数字验证码");
    const [row] = await this.db.query<{ id: string; code_hash: string; tries: number }>(
      `update pms_h5_code set tries = tries + 1
        where id = (select id from pms_h5_code
                     where tenant_id = $1 and phone = $2 and used_time is null and expires_at > now()
                     order by create_time desc, id desc limit 1)
          and tries < $3
       returning id::text as id, code_hash, tries`,
      [tenantId, phone, CODE_RULES.tries],
    );
    if (!row) throw badRequest("code: 验证码已失效,请重新获取");
    const expected = Buffer.from(row.code_hash, "hex");
    const given = Buffer.from(this.hash(row.id, code), "hex");
    if (!timingSafeEqual(expected, given)) {
      const left = CODE_RULES.tries - row.tries;
      throw badRequest(left > 0 ? `code: 验证码错误,还可尝试 ${left} 次` : "code: 验证码错误,请重新获取");
    }
    const spent = await this.db.query(
      "update pms_h5_code set used_time = now() where id = $1 and used_time is null returning id",
      [row.id],
    );
    if (spent.length === 0) throw badRequest("code: 验证码已失效,请重新获取");
  }
}
