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
    /** Aliyun AccessKeyId, Tencent Cloud SecretId, Qiniu AccessKey; Yunpian: the account (its key is the secret). */
    accessKey: { type: "string", required: true, maxLength: 128 },
    /** Aliyun AccessKeySecret, Tencent Cloud SecretKey, Qiniu SecretKey, Yunpian APIKEY. */
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

/** Dictionary `oss` key of storage on the server's own disk (under DATA_DIR), the default. */
export const LOCAL_STORAGE_CATEGORY = 9;

/**
 * A tenant's object-storage settings (contract §12.2): local disk or an S3-compatible service
 * (MinIO, Aliyun OSS, Tencent COS through their S3 APIs). One is enabled at a time (status 2);
 * enabling one tests the connection first. The secret key is stored encrypted and answered masked.
 */
export const oss = defineResource({
  name: "oss",
  table: "blade_oss",
  service: "blade-resource",
  path: "oss",
  listVerb: "list",
  tenantScoped: true,
  tenantStrict: true,
  guard: "admin",
  softDelete: true,
  audit: true,
  fields: {
    category: { type: "int", required: true, dict: "oss", search: "equal" },
    ossCode: { type: "string", required: true, maxLength: 32, search: "like", unique: true },
    /** The service's S3 address; blank for local disk. */
    endpoint: {
      type: "string",
      maxLength: 255,
      span: 24,
      pattern: { regex: "^https?://[^\\s]+$", message: "url" },
    },
    bucketName: { type: "string", maxLength: 63 },
    region: { type: "string", maxLength: 32, list: false },
    accessKey: { type: "string", maxLength: 128, list: false },
    secretKey: { type: "string", maxLength: 128, encrypted: true, list: false },
    /** 1: bucket in the path (MinIO and most local servers); 0: bucket as a sub-domain. */
    pathStyle: { type: "int", dict: "yes_no", default: 1, list: false },
    /** The public address of the bucket, answered as a file's `domain`; links still go through the server. */
    linkBase: {
      type: "string",
      maxLength: 255,
      list: false,
      span: 24,
      pattern: { regex: "^https?://[^\\s]+$", message: "url" },
    },
    appId: { type: "string", maxLength: 64, list: false },
    remark: { type: "text", maxLength: 255, list: false, span: 24 },
  },
  sort: [{ field: "id" }],
});

/**
 * Every stored file (contract §12.4): the server writes the row on upload; an operator renames,
 * downloads or removes it (removing deletes the object as well). Each row remembers the storage
 * settings it went to, so switching the enabled storage never breaks an older link.
 */
export const attach = defineResource({
  name: "attach",
  table: "blade_attach",
  service: "blade-resource",
  path: "attach",
  listVerb: "list",
  tenantScoped: true,
  tenantStrict: true,
  rowsCreatedByServer: true,
  softDelete: false,
  audit: true,
  fields: {
    originalName: { type: "string", required: true, maxLength: 500, search: "like", width: 240 },
    name: { type: "string", maxLength: 500, form: false, width: 320 },
    extension: { type: "string", maxLength: 12, form: false, width: 80 },
    attachSize: { type: "int", form: false, width: 110 },
    contentType: { type: "string", maxLength: 100, form: false, list: false },
    ossId: { type: "id", form: false, list: false },
    objectKey: { type: "string", maxLength: 600, form: false, list: false },
    link: { type: "string", maxLength: 1000, form: false, list: false },
    domain: { type: "string", maxLength: 500, form: false, list: false },
  },
  sort: [{ field: "id", desc: true }],
  indexes: [["name"]],
});
