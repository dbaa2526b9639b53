/** Chinese strings of the command log (运行控制 → 命令记录). */
export const commandLogZh = {
  "commandLog.action": "动作",
  "commandLog.reason": "判定依据",
  "commandLog.operator": "操作人",
  "commandLog.source": "来源",
  "commandLog.room": "所在房间",
  "commandLog.system": "系统",
  // NB-IoT meters: a command waits at the operator's platform until the sleeping meter wakes.
  "commandLog.platformState": "平台状态",
  "commandLog.expectedWake": "预计唤醒",
  "commandLog.platform.queued": "平台缓存中",
  "commandLog.platform.sent": "平台已下发",
  "commandLog.platform.delivered": "已送达表计",
  "commandLog.platform.executed": "表计已执行",
  "commandLog.platform.failed": "执行失败",
  "commandLog.platform.expired": "已过期",
} as const;
