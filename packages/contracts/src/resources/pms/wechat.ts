import { defineResource } from "../../resource/types.ts";
import { registryBase, remarkField } from "./base.ts";

/** A tenant's WeChat Pay merchant settings; keys are stored encrypted and answered masked. */
export const wxConfig = defineResource({
  name: "wxConfig",
  table: "pms_wx_config",
  ...registryBase,
  path: "wxconfig",
  listVerb: "list",
  fields: {
    appId: { type: "string", required: true, maxLength: 32, search: "like" },
    mchId: { type: "string", required: true, maxLength: 32, search: "like", unique: true },
    apiKey: { type: "string", maxLength: 64, encrypted: true },
    apiV3Key: { type: "string", maxLength: 64, encrypted: true, list: false },
    certSerialNo: { type: "string", maxLength: 64, list: false },
    privateKey: { type: "text", maxLength: 4000, encrypted: true, list: false, span: 24 },
    notifyUrl: { type: "string", maxLength: 255, list: false, span: 24 },
    // WeChat Pay API v3 answers and notifications are verified with the platform public key (or
    // certificate) of this serial; the base URL points at WeChat Pay or at a local double.
    platformSerialNo: { type: "string", maxLength: 64, list: false },
    platformPublicKey: { type: "text", maxLength: 4000, list: false, span: 24 },
    apiBase: { type: "string", maxLength: 255, list: false, span: 24 },
    maxAmount: { type: "decimal", scale: 2, list: false },
    // The official account's web-page authorization (owner page inside WeChat): its secret, and
    // the base that stands in for WeChat's two hosts (blank: the real ones; a test double otherwise).
    appSecret: { type: "string", maxLength: 64, encrypted: true, list: false },
    oauthUrl: { type: "string", maxLength: 255, list: false, span: 24 },
    // The SMS configuration (its code) that sends the owner page's verification codes; blank: the enabled one.
    smsCode: { type: "string", maxLength: 32, list: false },
    enabled: { type: "int", required: true, dictBiz: "YES_NO", default: 1 },
    remark: remarkField,
  },
});

/**
 * Owners bound to a WeChat openid, or to a phone number proven by an SMS code, so they can see
 * balances and pay from the owner page. One row per openid or phone in a tenant.
 */
export const wxBind = defineResource({
  name: "wxBind",
  table: "pms_wx_bind",
  ...registryBase,
  path: "wxbind",
  listVerb: "page",
  fields: {
    ownerId: { type: "id", required: true, search: "equal", ref: { resource: "owner", label: "ownerName" } },
    openId: { type: "string", maxLength: 64, search: "like", unique: true },
    phone: { type: "string", maxLength: 20, search: "like", unique: true },
    appId: { type: "string", maxLength: 32 },
    nickname: { type: "string", maxLength: 64, search: "like" },
    bindTime: { type: "datetime" },
  },
});
