/** Strings of the global search (top bar box and the Ctrl+K overlay). */
export const globalSearchZh = {
  "globalSearch.title": "全局搜索",
  "globalSearch.placeholder": "搜索房间、业主、表号、采集器",
  "globalSearch.empty": "没有匹配的房间、业主、表计或采集器",
  "globalSearch.failed": "搜索失败，请稍后再试",
  "globalSearch.typeMore": "请至少输入两个字符",
  "globalSearch.rooms": "房间",
  "globalSearch.owners": "业主",
  "globalSearch.meters": "表计",
  "globalSearch.collectors": "采集器",
  "globalSearch.electric": "电表",
  "globalSearch.water": "水表",
  "globalSearch.collectorFilter": "采集器编号",
  "globalSearch.clearFilter": "清除采集器筛选",
};
