/** Strings of the resource tables' toolbar and row menu: columns, density, batches over a search. */
export const tablesZh = {
  "crud.tenant": "租户",
  "crud.tenant.all": "全部租户",
  "crud.more": "更多",
  "table.columns": "列设置",
  "table.columnsReset": "显示全部列",
  "table.density": "密度",
  "table.density.large": "宽松",
  "table.density.middle": "中等",
  "table.density.small": "紧凑",
  "table.scope.matching": "全部符合搜索条件的 {count} 块表",
  "table.scope.confirm": "将对符合搜索条件的 {count} 块表执行此操作，确定继续？",
  "table.scope.tooMany": "符合条件的表超过 {max} 块，请缩小搜索范围",
  "table.scope.none": "没有符合搜索条件的表",
  "table.scope.switch.electric": "按搜索结果拉合闸（{count}）",
  "table.scope.switch.water": "按搜索结果开关阀（{count}）",
};
