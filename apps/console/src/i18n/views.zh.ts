/** Strings of the read-only view dialogs and the role grant's empty scope tabs. */
export const viewsZh = {
  "role.grantEmpty.dataScope": "还没有数据权限规则",
  "role.grantEmpty.apiScope": "还没有接口权限规则",
  "role.grantEmpty.goDataScope": "前往「数据权限」添加规则",
  "role.grantEmpty.goApiScope": "前往「接口权限」添加规则",
  "role.grantEmpty.askDataScope": "规则在「数据权限」菜单中为各菜单添加，请联系有该权限的管理员",
  "role.grantEmpty.askApiScope": "规则在「接口权限」菜单中为各菜单添加，请联系有该权限的管理员",
};
