export interface AuditEntry {
  at: Date;
  platform: string;
  userId: string;
  /** The action or command, e.g. `budget.ack`, `budget set`. */
  action: string;
  /** What it acted on: a finding id, a team. */
  subject: string;
  result: 'ok' | 'refused' | 'failed' | 'dry-run' | 'duplicate';
  detail?: string | null;
}
