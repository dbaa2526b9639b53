import { defineResource } from "../resource/types.ts";

/**
 * A tenant's SMS provider settings (contract §12.3). One of them is enabled at a time (status 2;
 * 1 is off); the secret key is stored encrypted and answered masked. Enabling and sending are the
 * sms module's calls, beside the plain list, detail, submit and remove.
 */
export const sms = defineResource({
  name: "sms",
  table: "blade_sms",
  service: "blade-resource",
  path: "sms",
  listVerb: "list",
  tenantScoped: true,
  // Each tenant sends through its own settings, the platform's administrator included.
  tenantStrict: true,
  guard: "admin",
  softDelete: true,
  audit: true,
  fields: {
    category: { type: "int", required: true, dict: "sms", search: "equal" },
    smsCode: { type: "string", required: true, maxLength: 32, search: "like", unique: true },
    templateId: { type: "string", required: true, maxLength: 64 },
    /** Aliyun AccessKeyId, Tencent Cloud SecretId. */
    accessKey: { type: "string", required: true, maxLength: 128 },
    /** Aliyun AccessKeySecret, Tencent Cloud SecretKey. */
    secretKey: { type: "string", required: true, maxLength: 128, encrypted: true, list: false },
    regionId: { type: "string", maxLength: 32, list: false },
    signName: { type: "string", required: true, maxLength: 64 },
    /** Tencent Cloud's SMS application (SmsSdkAppId); unused by Aliyun. */
    appId: { type: "string", maxLength: 32, list: false },
    /** The provider's API address; blank means its public one. */
    endpoint: {
      type: "string",
      maxLength: 255,
      list: false,
      span: 24,
      pattern: { regex: "^https?://[^\\s]+$", message: "url" },
    },
    remark: { type: "text", maxLength: 255, list: false, span: 24 },
  },
  sort: [{ field: "id" }],
});
