import { defineResource } from "../resource/types.ts";

/**
 * Users (contract §10.1). Passwords are write-only; creating, updating and removing carry rules
 * (hashing, account quota, self-removal), so writes live in the user module.
 */
export const user = defineResource({
  name: "user",
  table: "sys_user",
  service: "blade-user",
  path: "",
  listVerb: "page",
  tenantScoped: true,
  softDelete: true,
  audit: true,
  moduleWrites: true,
  dataScope: true,
  guard: "admin",
  fields: {
    account: { type: "string", required: true, maxLength: 45, search: "like", readOnlyOnEdit: true },
    password: { type: "string", maxLength: 64, secret: true, list: false },
    code: { type: "string", maxLength: 12, list: false },
    name: { type: "string", required: true, maxLength: 20, search: "like" },
    realName: { type: "string", required: true, maxLength: 20, search: "like" },
    userType: { type: "int", required: true, dict: "user_type", default: 1 },
    avatar: { type: "image", maxLength: 500, list: false },
    email: { type: "string", maxLength: 45, pattern: { regex: "^[^@\\s]+@[^@\\s]+$", message: "email" } },
    phone: {
      type: "string",
      maxLength: 45,
      search: "like",
      pattern: { regex: "^1[3-9]\\d{9}$", message: "phone" },
    },
    birthday: { type: "date", list: false },
    sex: { type: "int", dict: "sex" },
    roleId: { type: "idList", required: true, ref: { resource: "role", label: "roleName", multiple: true } },
    deptId: { type: "idList", required: true, ref: { resource: "dept", label: "deptName", multiple: true } },
    postId: { type: "idList", ref: { resource: "post", label: "postName", multiple: true } },
    /** 1 enabled, 0 disabled: a disabled user cannot sign in and its sessions end (user module). */
    status: { type: "int", required: true, dict: "user_status", default: 1, search: "equal", width: 90 },
    /** Settings of the user on its platform (userType), a JSON object set through update-platform. */
    userExt: { type: "text", maxLength: 2000, list: false, form: false },
  },
  sort: [{ field: "id" }],
});
