import type { commandLogZh } from "./command-log.zh.ts";

/** English strings of the command log; same keys as the Chinese. */
export const commandLogEn: Record<keyof typeof commandLogZh, string> = {
  "commandLog.action": "Action",
  "commandLog.reason": "Reason",
  "commandLog.operator": "Operator",
  "commandLog.source": "Source",
  "commandLog.room": "Room",
  "commandLog.system": "System",
  "commandLog.platformState": "Platform state",
  "commandLog.expectedWake": "Expected wake",
  "commandLog.platform.queued": "Held at the platform",
  "commandLog.platform.sent": "Sent by the platform",
  "commandLog.platform.delivered": "Delivered to the meter",
  "commandLog.platform.executed": "Executed by the meter",
  "commandLog.platform.failed": "Failed",
  "commandLog.platform.expired": "Expired",
};
