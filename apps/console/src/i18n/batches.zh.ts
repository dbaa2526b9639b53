/** Chinese strings of batches over every matching row and over an area of the tree. */
export const batchesZh = {
  "batch.removeMatching": "删除全部匹配（{count}）",
  "batch.removeMatchingTitle": "删除 {count} 条数据",
  "batch.removeMatchingConfirm": "将删除符合搜索条件的 {count} 条数据，删除后不可恢复，确定继续？",
  "batch.tooMany": "符合条件的数据超过 {max} 条，请缩小搜索范围",
  "batch.none": "没有符合搜索条件的数据",
  "batch.area.electric": "按区域拉合闸",
  "batch.area.water": "按区域开关阀",
  "batch.area.title.electric": "按区域拉合闸：选择目标",
  "batch.area.title.water": "按区域开关阀：选择目标",
  "batch.area.pick": "区域或楼栋",
  "batch.area.pickPlaceholder": "请选择区域或楼栋",
  "batch.area.tenantFirst": "请先选择租户",
  "batch.area.count": "{area} 下共 {count} 块表",
  "batch.area.none": "{area} 下没有表",
  "batch.area.next": "确认 {count} 块表，下一步",
} as const;
