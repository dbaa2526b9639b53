/** Chinese words of the API log's titles for the generic resource calls. */
export const apiLogZh = {
  "apiLog.verb.list": "查询",
  "apiLog.verb.detail": "详情",
  "apiLog.verb.save": "保存",
  "apiLog.verb.remove": "删除",
  "apiLog.verb.export": "导出",
  "apiLog.verb.import": "导入",
} as const;
