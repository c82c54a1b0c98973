import { CREATE_MIGRATIONS_TABLE, MIGRATIONS, refuseUnknown, sqlOf, type Migration } from '../migrations.js';
import type { Session } from '../session.js';

/**
 * Applies the migrations not yet recorded, in one transaction under an advisory lock: replicas
 * starting together queue behind the first, which finds nothing left to do for the others.
 */
export async function migratePostgres(db: Session, migrations: readonly Migration[] = MIGRATIONS): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.lock('burnrate migrations');
    await tx.run(CREATE_MIGRATIONS_TABLE);
    const applied = new Set((await tx.rows<{ key: string }>('SELECT key FROM burnrate_migrations')).map((r) => r.key));
    refuseUnknown(applied, migrations);
    for (const migration of migrations) {
      if (applied.has(migration.key)) continue;
      const sql = sqlOf(migration, tx.dialect);
      if (sql.trim() !== '') await tx.run(sql);
      await tx.run('INSERT INTO burnrate_migrations (key, applied_at) VALUES (?, ?)', [migration.key, new Date().toISOString()]);
    }
  });
}
