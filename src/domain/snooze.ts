export interface Snooze {
  groupKey: string;
  until: Date;
  byUser: string;
  at: Date;
  /** What was asked for (`24h`, `7d`, `period`, `2w`); null for snoozes recorded before it was kept. */
  duration?: string | null;
}

/**
 * What came of a snooze request. set: it is in force now (`replaced`: the active one it replaced);
 * same: the same duration already runs for the group (a repeated click); longer: an active snooze
 * ends later and was kept.
 */
export type SnoozeOutcome = { kind: 'set'; snooze: Snooze; replaced: Snooze | null } | { kind: 'same' | 'longer'; snooze: Snooze };
