/** Counters shared by the parts of one gateway; plain numbers, read by stats(). */
export interface Counters {
  connectionsAccepted: number;
  /** Refused at accept or registration: by reason. */
  rejected: Record<string, number>;
  /** Closed after registration: by reason (offline, garbage, replaced, lease lost…). */
  closed: Record<string, number>;
  registrations: number;
  heartbeats: number;
  garbageBytes: number;
  requests: number;
  replies: number;
  timeouts: number;
  retries: number;
  unexpectedFrames: number;
  pollsCompleted: number;
  pollsFailed: number;
  readings: number;
  commands: { success: number; fail: number; timeout: number; reconciled: number };
  mqttMessagesDropped: number;
  /** Broadcast-time frames sent to correct drifting meter clocks. */
  clockBroadcasts: number;
}

export function newCounters(): Counters {
  return {
    connectionsAccepted: 0,
    rejected: {},
    closed: {},
    registrations: 0,
    heartbeats: 0,
    garbageBytes: 0,
    requests: 0,
    replies: 0,
    timeouts: 0,
    retries: 0,
    unexpectedFrames: 0,
    pollsCompleted: 0,
    pollsFailed: 0,
    readings: 0,
    commands: { success: 0, fail: 0, timeout: 0, reconciled: 0 },
    mqttMessagesDropped: 0,
    clockBroadcasts: 0,
  };
}

export function bump(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1;
}

export interface GatewayStats extends Counters {
  connections: { open: number; pending: number; registered: number };
  collectorsOnline: number;
  metersOnline: number;
  commandsInFlight: number;
  pendingReconciliations: number;
}
