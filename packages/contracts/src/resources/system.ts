import { defineResource } from "../resource/types.ts";

/**
 * System parameters (spec §2 system parameter screen, contract §10.6). The platform tenant's rows
 * are the defaults; a tenant's own row of a key overrides it for that tenant. Platform-wide keys
 * (security, retention) have no tenant values and are seen and edited by the platform
 * administrator only. Writes live in the param module (a tenant's edit of a default makes its own row).
 */
export const param = defineResource({
  name: "param",
  table: "sys_param",
  service: "blade-system",
  path: "param",
  listVerb: "list",
  tenantScoped: true,
  // The platform administrator edits the defaults, not the tenants' own values.
  tenantStrict: true,
  moduleWrites: true,
  softDelete: true,
  audit: true,
  fields: {
    paramName: { type: "string", required: true, maxLength: 255, search: "like", span: 24 },
    paramKey: {
      type: "string",
      required: true,
      maxLength: 255,
      search: "like",
      unique: true,
      readOnlyOnEdit: true,
      span: 24,
    },
    paramValue: { type: "text", required: true, maxLength: 255, span: 24 },
    remark: { type: "text", maxLength: 255, list: false, span: 24 },
    /** 1: one value for every tenant, the platform administrator's only; 0: each tenant may set its own. */
    platformWide: { type: "int", required: true, dict: "yes_no", default: 1, search: "equal", span: 24 },
  },
  sort: [{ field: "id" }],
});

/** Posts (contract §10.3). Per tenant. */
export const post = defineResource({
  name: "post",
  table: "sys_post",
  service: "blade-system",
  path: "post",
  listVerb: "list",
  extraVerbs: ["select"],
  tenantScoped: true,
  dataScope: true,
  softDelete: true,
  audit: true,
  // Any signed-in user's in the family (§8.2); here the screens that pick posts, and the administrators.
  pickerGuard: "admin",
  fields: {
    category: { type: "int", required: true, dict: "post_category", search: "equal" },
    postCode: { type: "string", required: true, maxLength: 12, search: "like", unique: true },
    postName: { type: "string", required: true, maxLength: 64, search: "like" },
    sort: { type: "int", required: true, min: 0, max: 100000, default: 1 },
    remark: { type: "text", maxLength: 255, list: false, span: 24 },
  },
  sort: [{ field: "sort" }, { field: "id" }],
});

/** OAuth clients (contract §10.7): the Basic credentials and token lifetimes of each console or app. */
export const client = defineResource({
  name: "client",
  table: "sys_client",
  service: "blade-system",
  path: "client",
  listVerb: "list",
  tenantScoped: false,
  softDelete: true,
  audit: true,
  guard: "administrator",
  fields: {
    clientId: {
      type: "string",
      required: true,
      maxLength: 48,
      search: "like",
      unique: true,
      readOnlyOnEdit: true,
    },
    clientSecret: { type: "string", required: true, maxLength: 256, list: false },
    scope: { type: "string", required: true, maxLength: 255, default: "all" },
    authorizedGrantTypes: {
      type: "string",
      required: true,
      maxLength: 255,
      default: "refresh_token,password",
    },
    accessTokenValidity: { type: "int", required: true, min: 60, max: 86_400, default: 3600 },
    refreshTokenValidity: { type: "int", required: true, min: 60, max: 31_536_000, default: 604_800 },
    // The family's fields (§10.7): shown and saved as the family's consoles do; sign-in reads none.
    webServerRedirectUri: { type: "string", maxLength: 255, list: false, span: 24 },
    resourceIds: { type: "string", maxLength: 255, list: false },
    authorities: { type: "string", maxLength: 255, list: false },
    autoapprove: { type: "string", maxLength: 255, list: false },
    additionalInformation: { type: "text", maxLength: 4096, list: false, span: 24 },
  },
});

/** Top menus of a tenant (contract §7.4, §10.9); always inside the caller's tenant. */
export const topMenu = defineResource({
  name: "topMenu",
  menuCode: "topmenu",
  table: "sys_top_menu",
  service: "blade-system",
  path: "topmenu",
  listVerb: "list",
  tenantScoped: true,
  tenantStrict: true,
  softDelete: true,
  audit: true,
  guard: "admin",
  fields: {
    code: { type: "string", required: true, maxLength: 255, search: "like", unique: true },
    name: { type: "string", required: true, maxLength: 255, search: "like" },
    source: { type: "string", maxLength: 255 },
    sort: { type: "int", required: true, min: 0, max: 100000, default: 1 },
  },
  sort: [{ field: "sort" }, { field: "id" }],
});

/**
 * Tenants (contract §9.2). Each row is keyed by its own tenant code, so the tenant filter shows a
 * tenant administrator only their own row; creating one provisions it, so writes live in a module.
 */
export const tenant = defineResource({
  name: "tenant",
  table: "sys_tenant",
  service: "blade-system",
  path: "tenant",
  listVerb: "list",
  extraVerbs: ["select"],
  tenantScoped: true,
  softDelete: true,
  audit: true,
  moduleWrites: true,
  guard: "admin",
  pickerGuard: "admin",
  fields: {
    tenantName: { type: "string", required: true, maxLength: 50, search: "like" },
    domain: { type: "string", maxLength: 255, search: "like" },
    backgroundUrl: { type: "image", maxLength: 1000, list: false },
    /** The site's logo, printed with its name on receipts and closing slips. */
    logoUrl: { type: "image", maxLength: 1000, list: false },
    linkman: { type: "string", maxLength: 20, search: "like" },
    contactNumber: { type: "string", maxLength: 20 },
    address: { type: "string", maxLength: 255, list: false, span: 24 },
    accountNumber: { type: "int", min: -1, max: 1_000_000 },
    expireTime: { type: "datetime" },
    /**
     * The tenant's stored files: megabytes and number of files, checked before an upload is stored.
     * Blank takes the platform's default (parameters storage.quotaMb, storage.fileQuota); -1 is no limit.
     * Set by the platform administrator only (tenant writes are theirs).
     */
    storageQuota: { type: "int", min: -1, max: 100_000_000, list: false },
    fileQuota: { type: "int", min: -1, max: 1_000_000_000, list: false },
  },
  sort: [{ field: "id" }],
});
