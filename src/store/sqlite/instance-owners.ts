import type Database from 'better-sqlite3';
import { enqueueOutbox } from './outbox.js';
import type { InstanceOwner } from '../../domain/instance-owner.js';
import type { OutboxDraft } from '../outbox-records.js';
import type { InstanceOwnerStore } from '../instance-owners.js';

interface OwnerRow {
  instanceId: string;
  team: string;
  byUser: string;
  at: string;
}

export class SqliteInstanceOwnerStore implements InstanceOwnerStore {
  private readonly listStatement: Database.Statement<[], OwnerRow>;

  constructor(private readonly db: Database.Database) {
    this.listStatement = db.prepare(
      'SELECT instance_id AS instanceId, team, by_user AS byUser, at FROM instance_owners ORDER BY instance_id',
    );
  }

  async list(): Promise<InstanceOwner[]> {
    return this.listStatement.all().map((r) => ({ ...r, at: new Date(r.at) }));
  }

  async reassign(owner: InstanceOwner, alerts: OutboxDraft[]): Promise<void> {
    const at = owner.at.toISOString();
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO instance_owners (instance_id, team, by_user, at) VALUES (?, ?, ?, ?)
           ON CONFLICT (instance_id) DO UPDATE SET team = excluded.team, by_user = excluded.by_user, at = excluded.at`,
        )
        .run(owner.instanceId, owner.team, owner.byUser, at);
      // The open findings move with the instance (the body carries the team too).
      this.db
        .prepare("UPDATE gpu_findings SET team = ?, body = json_set(body, '$.team', ?) WHERE instance_id = ? AND state = 'open'")
        .run(owner.team, owner.team, owner.instanceId);
      enqueueOutbox(this.db, alerts, owner.at);
    })();
  }
}
