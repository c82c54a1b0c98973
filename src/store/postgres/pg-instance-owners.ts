import type { InstanceOwner } from '../../domain/instance-owner.js';
import type { InstanceOwnerStore } from '../instance-owners.js';
import type { OutboxDraft } from '../outbox-records.js';
import type { PgDb } from './pg-db.js';
import { enqueuePgOutbox } from './pg-outbox.js';

export class PgInstanceOwnerStore implements InstanceOwnerStore {
  constructor(private readonly db: PgDb) {}

  async list(): Promise<InstanceOwner[]> {
    const rows = await this.db.rows<Omit<InstanceOwner, 'at'> & { at: string }>(
      'SELECT instance_id AS "instanceId", team, by_user AS "byUser", at FROM instance_owners ORDER BY instance_id COLLATE "C"',
    );
    return rows.map((r) => ({ ...r, at: new Date(r.at) }));
  }

  async reassign(owner: InstanceOwner, alerts: OutboxDraft[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run(
        `INSERT INTO instance_owners (instance_id, team, by_user, at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (instance_id) DO UPDATE SET team = excluded.team, by_user = excluded.by_user, at = excluded.at`,
        [owner.instanceId, owner.team, owner.byUser, owner.at.toISOString()],
      );
      // The open findings move with the instance (the body carries the team too). The body is
      // rewritten here rather than by jsonb_set, which would reorder its keys: it stays as SQLite's json_set leaves it.
      const open = await tx.rows<{ id: string; body: string }>(
        "SELECT id, body FROM gpu_findings WHERE instance_id = $1 AND state = 'open' FOR UPDATE",
        [owner.instanceId],
      );
      for (const finding of open) {
        const body = JSON.stringify({ ...(JSON.parse(finding.body) as Record<string, unknown>), team: owner.team });
        await tx.run('UPDATE gpu_findings SET team = $1, body = $2 WHERE id = $3', [owner.team, body, finding.id]);
      }
      await enqueuePgOutbox(tx, alerts, owner.at);
    });
  }
}
