/** Chinese strings of the command log (运行控制 → 命令记录). */
export const commandLogZh = {
  "commandLog.action": "动作",
  "commandLog.reason": "判定依据",
  "commandLog.operator": "操作人",
  "commandLog.source": "来源",
  "commandLog.room": "所在房间",
  "commandLog.system": "系统",
} as const;
