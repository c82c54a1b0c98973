import type { SavingEntry } from '../domain/saving.js';
import type { Session } from './session.js';

/** An entry as the ledger's query returns it: its times still text. */
type LedgerRow = Omit<SavingEntry, 'at' | 'endedAt'> & { at: string; endedAt: string | null };

/**
 * When a stopped workload was resumed from the alert it was stopped from (the Resume's claim, taken
 * right before it acted), as the ledger's query reads it: `s` is the
 * savings_ledger row.
 */
const RESUMED_AT = `(SELECT r.at FROM instance_actions r
   WHERE s.action = 'instance.stop' AND r.finding_id = s.ref AND r.action = 'workload.resume' AND r.outcome = 'resumed')`;

/** Days in an average month: a migration's monthly saving as a saving a day. */
const DAYS_PER_MONTH = 365.25 / 12;

const entryFromRow = ({ at, endedAt, ...r }: LedgerRow): SavingEntry => ({
  ...r,
  at: new Date(at),
  ...(endedAt ? { endedAt: new Date(endedAt) } : {}),
});

/** The ledger entry a completing action writes inside its own transaction; a second completion adds nothing. */
export async function insertSaving(tx: Session, e: SavingEntry): Promise<void> {
  await tx.run(
    `INSERT INTO savings_ledger (action, ref, resource_id, name, team, at, by_user, expected_daily, currency)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (action, ref, resource_id) DO NOTHING`,
    [e.action, e.ref, e.resourceId, e.name, e.team, e.at.toISOString(), e.byUser, e.expectedDaily, e.currency],
  );
}

/** A review line answered "Right-size", with the first right-size recommendation its body carries. */
interface AnsweredLine {
  id: number;
  team: string;
  month: string;
  rank: number;
  body: string;
  answeredAt: string;
  answeredBy: string;
}

type Ordered = { entry: SavingEntry; at: string; part: number; seq: number };

export class SqlSavingsLedgerStore {
  constructor(private readonly db: Session) {}

  /**
   * Entries of actions taken from `since` (ISO) on: stops and sweep stops as recorded (a Stop ended
   * by the Resume clicked on the same alert), spot
   * migrations as migrated (their saving a day from the recommendation, ended by a revert), and
   * review lines a team answered "Right-size" where the line carried a right-size recommendation
   * (its saving a day; the bill confirms it once the instance runs as the smaller type, and an
   * answer changed since takes the entry back).
   * Entries oldest first; those of one instant (a sweep's stops) in the order they were written:
   * the ledger's own, then migrations, then review lines, each in insertion order.
   */
  async since(since: string): Promise<SavingEntry[]> {
    const seq = this.db.dialect.insertionOrder;
    const rows = await this.db.rows<LedgerRow & { part: number; seq: number }>(
      `SELECT s.action, s.ref, s.resource_id AS "resourceId", s.name, s.team, s.at, s.by_user AS "byUser",
         s.expected_daily AS "expectedDaily", s.currency, ${RESUMED_AT} AS "endedAt", 0 AS part, s.${seq} AS seq
       FROM savings_ledger s WHERE s.at >= ?
       UNION ALL
       SELECT 'spot.approve', 'migration:' || m.id, m.instance_id, NULL, m.team, m.migrated_at,
         (SELECT approver FROM spot_approvals a WHERE a.migration_id = m.id ORDER BY a.at DESC, a.${seq} DESC LIMIT 1),
         m.monthly_saving / ${DAYS_PER_MONTH}, 'USD', m.reverted_at, 1, m.id
       FROM spot_migrations m WHERE m.migrated_at IS NOT NULL AND m.migrated_at >= ?`,
      [since, since],
    );
    const ordered: Ordered[] = rows.map(({ part, seq, ...r }) => ({ entry: entryFromRow(r), at: r.at, part, seq }));
    // A review line's saving is read from its JSON body here, the same on both databases.
    const lines = await this.db.rows<AnsweredLine>(
      `SELECT id, team, month, rank, body, answered_at AS "answeredAt", answered_by AS "answeredBy"
       FROM review_lines WHERE answer = 'right-size' AND answered_at >= ?`,
      [since],
    );
    for (const line of lines) {
      const body = JSON.parse(line.body) as {
        resourceId?: string | null;
        label?: string | null;
        recommendations?: { kind?: string; monthlySaving?: number }[];
      };
      const monthlySaving = body.recommendations?.find((r) => r.kind === 'right-size')?.monthlySaving;
      if (body.resourceId == null || monthlySaving == null || !(monthlySaving > 0)) continue;
      const entry = entryFromRow({
        action: 'review.right-size',
        ref: `review:${line.team}:${line.month}:${line.rank}`,
        resourceId: body.resourceId,
        name: body.label ?? null,
        team: line.team,
        at: line.answeredAt,
        byUser: line.answeredBy,
        expectedDaily: monthlySaving / DAYS_PER_MONTH,
        currency: 'USD',
        endedAt: null,
      });
      ordered.push({ entry, at: line.answeredAt, part: 2, seq: line.id });
    }
    ordered.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.part - b.part || a.seq - b.seq));
    return ordered.map((o) => o.entry);
  }
}
