import { createHash, randomBytes } from "node:crypto";
import { badRequest } from "../../contract/errors.ts";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Db } from "../../db/client.ts";
import { ProviderClient, ProviderError, type ProviderSettings } from "../social/provider-client.ts";

/** A WeChat authorization started from the owner page may take this long to come back. */
export const STATE_SECONDS = 10 * 60;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** What the owner page needs of the tenant's WeChat settings (pms_wx_config, the enabled row). */
export interface OwnerPageSettings {
  appId: string;
  appSecret: string | undefined;
  oauthUrl: string;
  smsCode: string | undefined;
}

export async function settingsOf(
  db: Db,
  cipher: FieldCipher,
  tenantId: string,
): Promise<OwnerPageSettings | null> {
  const [row] = await db.query<{
    app_id: string;
    app_secret: string | null;
    oauth_url: string | null;
    sms_code: string | null;
  }>(
    `select app_id, app_secret, oauth_url, sms_code from pms_wx_config
      where tenant_id = $1 and is_deleted = 0 and enabled = 1 order by id limit 1`,
    [tenantId],
  );
  if (!row) return null;
  return {
    appId: row.app_id,
    appSecret: row.app_secret ? cipher.decrypt(row.app_secret) : undefined,
    oauthUrl: row.oauth_url ?? "",
    smsCode: row.sms_code || undefined,
  };
}

/**
 * WeChat's web-page authorization with scope snsapi_base (silent, answers the openid only),
 * spoken through the social sign-in's client: openid-client with the fetch adapter that turns its
 * standard token request into WeChat's GET with appid and secret. The state is kept server-side.
 */
export class WechatAuthorize {
  private readonly client = new ProviderClient();

  constructor(private readonly db: Db) {}

  private provider(tenantId: string, settings: OwnerPageSettings, redirectUri: string): ProviderSettings {
    if (!settings.appSecret) throw badRequest("appSecret: 未配置公众号 AppSecret");
    return {
      id: `owner-page:${tenantId}`,
      source: "wechat_mp",
      clientId: settings.appId,
      clientSecret: settings.appSecret,
      issuer: settings.oauthUrl,
      scopes: "snsapi_base",
      redirectUri,
    };
  }

  /** WeChat's address for the person, and the key the browser keeps in a cookie until it returns. */
  async start(
    tenantId: string,
    settings: OwnerPageSettings,
    redirectUri: string,
  ): Promise<{ url: string; browserKey: string }> {
    const { url, checks } = await this.client.start(this.provider(tenantId, settings, redirectUri));
    const browserKey = randomBytes(24).toString("base64url");
    await this.db.query(
      `insert into pms_h5_oauth_state (state, tenant_id, code_verifier, browser_hash, expires_at)
       values ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
      [checks.state, tenantId, checks.codeVerifier, sha256(browserKey), STATE_SECONDS],
    );
    return { url, browserKey };
  }

  /**
   * The tenant a returning state belongs to, spending the state (single use) when it comes back
   * to the browser that started it; another browser's attempt leaves it for its owner.
   */
  async claim(state: string, browserKey: string): Promise<{ tenantId: string; codeVerifier: string }> {
    const [row] = await this.db.query<{ tenant_id: string; code_verifier: string }>(
      `delete from pms_h5_oauth_state where state = $1 and browser_hash = $2 and expires_at > now()
       returning tenant_id, code_verifier`,
      [state, sha256(browserKey)],
    );
    if (!row) throw badRequest("state: 授权已过期,请重新进入");
    return { tenantId: row.tenant_id, codeVerifier: row.code_verifier };
  }

  async openid(
    tenantId: string,
    settings: OwnerPageSettings,
    redirectUri: string,
    code: string,
    claimed: { state: string; codeVerifier: string },
  ): Promise<string> {
    try {
      return await this.client.wechatOpenid(this.provider(tenantId, settings, redirectUri), code, {
        state: claimed.state,
        nonce: "",
        codeVerifier: claimed.codeVerifier,
      });
    } catch (error) {
      if (error instanceof ProviderError) throw badRequest(`code: ${error.message}`);
      throw error;
    }
  }

  async purge(): Promise<void> {
    await this.db.query("delete from pms_h5_oauth_state where expires_at < now()");
    await this.db.query("delete from pms_h5_session where expires_at < now() - interval '1 day'");
    await this.db.query("delete from pms_h5_code where create_time < now() - interval '1 day'");
  }
}
