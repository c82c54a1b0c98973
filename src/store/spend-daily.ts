import type Database from 'better-sqlite3';
import type { Period } from '../domain/period.js';
import type { SpendBatch, SpendDimension, SpendScope } from '../domain/spend.js';
import type { SpendFilter, SpendStore, SpendTotal, TeamDay } from './store.js';

const DIMENSION_COLUMN: Record<SpendDimension, string> = {
  team: 'team',
  service: 'service',
  resource: "coalesce(resource_id, '(no resource id)')",
  day: 'day',
  provider: 'provider',
};

export class SqliteSpendStore implements SpendStore {
  constructor(private readonly db: Database.Database) {}

  async totals(filter: SpendFilter, by: SpendDimension): Promise<SpendTotal[]> {
    const key = DIMENSION_COLUMN[by];
    const { clause, params } = teamClause(filter.teams);
    const order = by === 'day' ? 'key' : 'effective DESC, key';
    return this.db
      .prepare(
        `SELECT ${key} AS key, sum(billed) AS billed, sum(effective) AS effective
         FROM spend_daily WHERE day >= ? AND day < ? ${clause}
         GROUP BY key ORDER BY ${order}`,
      )
      .all(filter.period.start, filter.period.end, ...params) as SpendTotal[];
  }

  async dailyByTeam(since: string): Promise<TeamDay[]> {
    return this.db
      .prepare(
        `SELECT team, day, sum(billed) AS billed, sum(effective) AS effective
         FROM spend_daily WHERE day >= ? GROUP BY team, day`,
      )
      .all(since) as TeamDay[];
  }

  async currencies(period: Period): Promise<string[]> {
    const rows = this.db
      .prepare('SELECT DISTINCT currency FROM spend_daily WHERE day >= ? AND day < ? ORDER BY currency')
      .all(period.start, period.end) as { currency: string }[];
    return rows.map((r) => r.currency);
  }
}

function teamClause(teams: readonly string[] | undefined): { clause: string; params: string[] } {
  if (!teams) return { clause: '', params: [] };
  if (teams.length === 0) return { clause: 'AND 0', params: [] };
  return { clause: `AND team IN (${teams.map(() => '?').join(',')})`, params: [...teams] };
}

/** Deletes what a batch replaces. Runs inside the caller's transaction. */
export function deleteSpendScope(db: Database.Database, scope: SpendScope): number {
  let deleted = 0;
  const accounts = scope.billingAccounts;
  const byPeriod = db.prepare('DELETE FROM spend_daily WHERE source = ? AND billing_period = ?');
  const byAccount = db.prepare('DELETE FROM spend_daily WHERE source = ? AND billing_period = ? AND billing_account = ?');
  for (const period of scope.billingPeriods) {
    if (!accounts) deleted += byPeriod.run(scope.source, period).changes;
    else for (const account of accounts) deleted += byAccount.run(scope.source, period, account).changes;
  }
  return deleted;
}

/** Inserts a batch's rows. Runs inside the caller's transaction. */
export function insertSpendRows(db: Database.Database, batch: SpendBatch): number {
  const insert = db.prepare(
    `INSERT INTO spend_daily (source, billing_period, billing_account, day, team, owner_tag, provider, sub_account,
       service, service_category, resource_id, charge_category, pricing_category, currency, billed, effective)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const row of batch.rows) {
    insert.run(
      batch.scope.source,
      row.billingPeriod,
      row.billingAccount ?? '',
      row.day,
      row.team,
      row.ownerTag,
      row.provider,
      row.subAccount,
      row.service,
      row.serviceCategory,
      row.resourceId,
      row.chargeCategory,
      row.pricingCategory,
      row.currency,
      row.billed,
      row.effective,
    );
  }
  return batch.rows.length;
}
