import type { commandLogZh } from "./command-log.zh.ts";

/** English strings of the command log; same keys as the Chinese. */
export const commandLogEn: Record<keyof typeof commandLogZh, string> = {
  "commandLog.action": "Action",
  "commandLog.reason": "Reason",
  "commandLog.operator": "Operator",
  "commandLog.source": "Source",
  "commandLog.room": "Room",
  "commandLog.system": "System",
};
