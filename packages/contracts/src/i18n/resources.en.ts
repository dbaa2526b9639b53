import type { CommonFieldLabels, ResourceCatalog } from "./catalog.ts";
import { pmsResourcesEn } from "./resources.pms.en.ts";

const log = {
  serviceId: "Service",
  serverHost: "Server",
  env: "Environment",
  method: "Method",
  requestUri: "Path",
  userAgent: "Client",
  remoteIp: "Remote address",
  params: "Parameters",
  createBy: "By",
  createTime: "Time",
};
const dict = {
  parentId: "Parent dictionary",
  code: "Code",
  dictKey: "Key",
  dictValue: "Name",
  dictValueEn: "English name",
  sort: "Order",
  isSealed: "Sealed",
  remark: "Remark",
};

export const commonFieldsEn: CommonFieldLabels = {
  id: "ID",
  tenantId: "Tenant",
  createUser: "Created by",
  createDept: "Creating department",
  createTime: "Created",
  updateUser: "Updated by",
  updateTime: "Updated",
  status: "Status",
};

export const resourcesEn: ResourceCatalog = {
  tenant: {
    title: "Tenant",
    fields: {
      tenantName: "Tenant name",
      domain: "Domain",
      backgroundUrl: "Login background",
      linkman: "Contact",
      contactNumber: "Contact number",
      address: "Address",
      accountNumber: "Account quota",
      expireTime: "Expires",
    },
  },
  user: {
    title: "User",
    fields: {
      account: "Account",
      password: "Password",
      code: "User number",
      name: "Nickname",
      realName: "Name",
      userType: "Platform",
      avatar: "Avatar",
      email: "Email",
      phone: "Mobile",
      birthday: "Birthday",
      sex: "Sex",
      roleId: "Roles",
      deptId: "Departments",
      postId: "Posts",
      userExt: "Platform settings",
    },
  },
  dept: {
    title: "Department",
    fields: {
      parentId: "Parent",
      ancestors: "Ancestors",
      deptName: "Name",
      fullName: "Full name",
      deptCategory: "Type",
      sort: "Order",
      remark: "Remark",
    },
  },
  role: {
    title: "Role",
    fields: { parentId: "Parent role", roleName: "Role name", roleAlias: "Alias", sort: "Order" },
  },
  menu: {
    title: "Menu",
    fields: {
      parentId: "Parent",
      code: "Code",
      name: "Name",
      alias: "Alias",
      path: "Route",
      source: "Icon",
      sort: "Order",
      category: "Type",
      action: "Button placement",
      isOpen: "New window",
      remark: "Remark",
    },
  },
  dataScope: {
    title: "Data scope",
    fields: {
      menuId: "Menu",
      resourceCode: "Resource",
      scopeName: "Name",
      scopeColumn: "Field",
      scopeType: "Rule",
      scopeValue: "Rule value",
      remark: "Remark",
    },
  },
  apiScope: {
    title: "API scope",
    fields: {
      menuId: "Menu",
      resourceCode: "Resource",
      scopeName: "Name",
      scopePath: "Path",
      scopeType: "Type",
      remark: "Remark",
    },
  },
  param: {
    title: "Parameter",
    fields: {
      paramName: "Name",
      paramKey: "Key",
      paramValue: "Value",
      remark: "Remark",
      platformWide: "Platform-wide",
    },
  },
  post: {
    title: "Post",
    fields: { category: "Category", postCode: "Code", postName: "Name", sort: "Order", remark: "Remark" },
  },
  dict: { title: "System dictionary", fields: dict },
  dictBiz: { title: "Business dictionary", fields: dict },
  client: {
    title: "Client",
    fields: {
      clientId: "Client ID",
      clientSecret: "Secret",
      scope: "Scope",
      authorizedGrantTypes: "Grant types",
      accessTokenValidity: "Token seconds",
      refreshTokenValidity: "Refresh seconds",
    },
  },
  topMenu: { title: "Top menu", fields: { code: "Code", name: "Name", source: "Icon", sort: "Order" } },
  notice: {
    title: "Notice",
    fields: { title: "Title", category: "Category", releaseTime: "Released", content: "Content" },
  },
  logApi: {
    title: "API log",
    fields: { ...log, title: "Operation", status: "Status", time: "Duration (ms)" },
  },
  logError: {
    title: "Error log",
    fields: { ...log, exceptionName: "Exception", message: "Message", stackTrace: "Stack" },
  },
  logUsual: {
    title: "Business log",
    fields: { ...log, logLevel: "Level", logId: "Business ID", logData: "Content" },
  },
  sms: {
    title: "SMS settings",
    fields: {
      category: "Provider",
      smsCode: "Resource code",
      templateId: "Template id",
      accessKey: "Access key",
      secretKey: "Secret key",
      regionId: "Region",
      signName: "Signature name",
      appId: "App id (SdkAppId)",
      endpoint: "API address",
      remark: "Remark",
    },
  },
  ...pmsResourcesEn,
};
