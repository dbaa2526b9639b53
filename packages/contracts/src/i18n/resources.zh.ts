import type { CommonFieldLabels, ResourceCatalog } from "./catalog.ts";
import { pmsResourcesZh } from "./resources.pms.zh.ts";

const log = {
  serviceId: "服务",
  serverHost: "服务器",
  env: "环境",
  method: "请求方法",
  requestUri: "请求地址",
  userAgent: "客户端",
  remoteIp: "来源地址",
  params: "请求参数",
  createBy: "操作人",
  createTime: "时间",
};
const dict = {
  parentId: "上级字典",
  code: "字典编号",
  dictKey: "字典键值",
  dictValue: "字典名称",
  dictValueEn: "英文名称",
  sort: "字典排序",
  isSealed: "封存",
  remark: "备注",
};

export const commonFieldsZh: CommonFieldLabels = {
  id: "编号",
  tenantId: "租户编号",
  createUser: "创建人",
  createDept: "创建部门",
  createTime: "创建时间",
  updateUser: "修改人",
  updateTime: "修改时间",
  status: "状态",
};

export const resourcesZh: ResourceCatalog = {
  tenant: {
    title: "租户",
    fields: {
      tenantName: "租户名称",
      domain: "域名地址",
      backgroundUrl: "登录背景",
      linkman: "联系人",
      contactNumber: "联系电话",
      address: "联系地址",
      accountNumber: "账号额度",
      expireTime: "过期时间",
    },
  },
  user: {
    title: "用户",
    fields: {
      account: "登录账号",
      password: "密码",
      code: "用户编号",
      name: "用户昵称",
      realName: "用户姓名",
      userType: "用户平台",
      avatar: "头像",
      email: "电子邮箱",
      phone: "手机号码",
      birthday: "生日",
      sex: "性别",
      roleId: "所属角色",
      deptId: "所属部门",
      postId: "所属岗位",
      userExt: "平台扩展信息",
    },
  },
  dept: {
    title: "机构",
    fields: {
      parentId: "上级机构",
      ancestors: "祖级",
      deptName: "机构名称",
      fullName: "机构全称",
      deptCategory: "机构类型",
      sort: "排序",
      remark: "备注",
    },
  },
  role: {
    title: "角色",
    fields: { parentId: "上级角色", roleName: "角色名称", roleAlias: "角色别名", sort: "排序" },
  },
  menu: {
    title: "菜单",
    fields: {
      parentId: "上级菜单",
      code: "菜单编号",
      name: "菜单名称",
      alias: "菜单别名",
      path: "路由地址",
      source: "菜单图标",
      sort: "排序",
      category: "菜单类型",
      action: "按钮功能",
      isOpen: "新窗口打开",
      remark: "备注",
    },
  },
  dataScope: {
    title: "数据权限",
    fields: {
      menuId: "所属菜单",
      resourceCode: "资源编号",
      scopeName: "权限名称",
      scopeColumn: "权限字段",
      scopeType: "规则类型",
      scopeValue: "规则值",
      remark: "备注",
    },
  },
  apiScope: {
    title: "接口权限",
    fields: {
      menuId: "所属菜单",
      resourceCode: "资源编号",
      scopeName: "权限名称",
      scopePath: "权限路径",
      scopeType: "接口类型",
      remark: "备注",
    },
  },
  param: {
    title: "参数",
    fields: {
      paramName: "参数名称",
      paramKey: "参数键名",
      paramValue: "参数键值",
      remark: "备注",
      platformWide: "平台统一",
    },
  },
  post: {
    title: "岗位",
    fields: {
      category: "岗位类型",
      postCode: "岗位编号",
      postName: "岗位名称",
      sort: "排序",
      remark: "备注",
    },
  },
  dict: { title: "系统字典", fields: dict },
  dictBiz: { title: "业务字典", fields: dict },
  client: {
    title: "应用",
    fields: {
      clientId: "应用编号",
      clientSecret: "应用密钥",
      scope: "权限范围",
      authorizedGrantTypes: "授权类型",
      accessTokenValidity: "令牌秒数",
      refreshTokenValidity: "刷新令牌秒数",
    },
  },
  topMenu: {
    title: "顶部菜单",
    fields: { code: "菜单编号", name: "菜单名称", source: "菜单图标", sort: "排序" },
  },
  notice: {
    title: "通知公告",
    fields: { title: "通知标题", category: "通知类型", releaseTime: "发布时间", content: "通知内容" },
  },
  logApi: { title: "接口日志", fields: { ...log, title: "接口名称", status: "状态码", time: "耗时(毫秒)" } },
  logError: {
    title: "错误日志",
    fields: { ...log, exceptionName: "异常类型", message: "异常信息", stackTrace: "堆栈" },
  },
  logUsual: {
    title: "通用日志",
    fields: { ...log, logLevel: "日志级别", logId: "日志业务编号", logData: "日志内容" },
  },
  sms: {
    title: "短信配置",
    fields: {
      category: "服务商",
      smsCode: "资源编号",
      templateId: "模版ID",
      accessKey: "accessKey",
      secretKey: "secretKey",
      regionId: "regionId",
      signName: "短信签名",
      appId: "应用ID(SdkAppId)",
      endpoint: "接口地址",
      remark: "备注",
    },
  },
  ...pmsResourcesZh,
};
