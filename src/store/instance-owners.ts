import type { InstanceOwner } from '../domain/instance-owner.js';
import { enqueueOutbox } from './outbox-table.js';
import type { OutboxDraft } from './outbox-records.js';
import type { Session } from './session.js';

export class SqlInstanceOwnerStore {
  constructor(private readonly db: Session) {}

  async list(): Promise<InstanceOwner[]> {
    const rows = await this.db.rows<Omit<InstanceOwner, 'at'> & { at: string }>(
      `SELECT instance_id AS "instanceId", team, by_user AS "byUser", at FROM instance_owners ORDER BY ${this.db.dialect.bytes('instance_id')}`,
    );
    return rows.map((r) => ({ ...r, at: new Date(r.at) }));
  }

  /** Records the owner, moves the instance's open findings to it and queues `alerts`, in one transaction. */
  async reassign(owner: InstanceOwner, alerts: OutboxDraft[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run(
        `INSERT INTO instance_owners (instance_id, team, by_user, at) VALUES (?, ?, ?, ?)
         ON CONFLICT (instance_id) DO UPDATE SET team = excluded.team, by_user = excluded.by_user, at = excluded.at`,
        [owner.instanceId, owner.team, owner.byUser, owner.at.toISOString()],
      );
      // The open findings move with the instance (the body carries the team too). The body is
      // rewritten here, keeping its keys in their order, rather than by each database's JSON functions.
      const open = await tx.rows<{ id: string; body: string }>(
        `SELECT id, body FROM check_findings WHERE family = 'gpu' AND subject = ? AND state = 'open' ${tx.dialect.forUpdate}`,
        [owner.instanceId],
      );
      for (const finding of open) {
        const body = JSON.stringify({ ...(JSON.parse(finding.body) as Record<string, unknown>), team: owner.team });
        await tx.run("UPDATE check_findings SET team = ?, body = ? WHERE family = 'gpu' AND id = ?", [owner.team, body, finding.id]);
      }
      await enqueueOutbox(tx, alerts, owner.at);
    });
  }
}
