/** 档案拓扑图的文字（区域 → 楼栋 → 采集器 → 表计）。 */
export const topologyZh = {
  "pms.topology.open": "拓扑图",
  "pms.topology.title": "档案拓扑图",
  "pms.topology.area": "区域",
  "pms.topology.meter": "电表",
  "pms.topology.water": "水表",
  "pms.topology.collector": "采集器",
  "pms.topology.direct": "直连表计",
  "pms.topology.online": "在线",
  "pms.topology.offline": "离线",
  "pms.topology.more": "还有 {count} 块表，请用搜索查找",
  "pms.topology.areaLabel": "{name}（{meters} 块表，{offline} 离线）",
  "pms.topology.collectorLabel": "{name}（{meters}）",
  "pms.topology.hint":
    "点击区域或采集器展开或折叠，点击表计打开其详情；滚轮缩放，拖动平移；红色虚线为离线设备",
  "pms.topology.search": "在拓扑中搜索表号、房间、采集器或区域",
  "pms.topology.found": "找到 {count} 个",
  "pms.topology.notFound": "没有匹配的节点",
  "pms.topology.expandLevel": "展开一层",
  "pms.topology.collapse": "折叠到楼栋",
  "pms.topology.fit": "适应窗口",
  "pms.topology.empty": "该区域下暂无档案",
  "pms.topology.truncated": "表计超过 {limit} 块，仅包含前 {limit} 块，请选择更小的区域查看",
  "pms.topology.summary":
    "拓扑图：{areas} 个区域，{collectors} 个采集器，{meters} 块表，其中 {offline} 块离线；当前显示 {shown} 个节点",
};
