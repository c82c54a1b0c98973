import { expect, it } from 'vitest';
import type { AuditEntry } from '../../../src/domain/audit.js';
import { describeStores } from '../../support/stores.js';

const entry = (minute: number, overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  at: new Date(Date.UTC(2026, 10, 3, 10, minute)),
  platform: 'slack',
  userId: 'U0ALICE',
  action: 'budget.ack',
  subject: 'budget:ml-research:2026-11:80',
  result: 'ok',
  ...overrides,
});

describeStores('audit log', (store) => {
  it('lists what was recorded, newest first, with ids in the order recorded', async () => {
    const refused = entry(1, {
      platform: 'msteams',
      userId: 'bob@example.com',
      action: 'budget set',
      subject: 'nlp',
      result: 'refused',
      detail: 'not an approver',
    });
    await store().audit.record(entry(0));
    await store().audit.record(refused);
    await store().audit.record(entry(2, { action: 'instance.stop', subject: 'i-0abc', result: 'dry-run', detail: null }));

    const listed = await store().audit.list();
    expect(listed.map(({ id: _, ...rest }) => rest)).toEqual([
      { ...entry(2, { action: 'instance.stop', subject: 'i-0abc', result: 'dry-run' }), detail: null },
      refused,
      { ...entry(0), detail: null },
    ]);
    const [third, second, first] = listed.map((e) => e.id);
    expect(typeof first).toBe('number');
    expect(first! < second! && second! < third!).toBe(true);
  });

  it('lists at most `limit` entries, 100 by default', async () => {
    for (let i = 0; i < 102; i++) await store().audit.record(entry(i % 60, { subject: `finding-${i}` }));
    expect(await store().audit.list(2)).toMatchObject([{ subject: 'finding-101' }, { subject: 'finding-100' }]);
    const all = await store().audit.list();
    expect(all).toHaveLength(100);
    expect(all.at(-1)!.subject).toBe('finding-2');
  });

  it('keeps every entry of concurrent writers', async () => {
    await Promise.all(Array.from({ length: 10 }, (_, i) => store().audit.record(entry(i, { subject: `s${i}` }))));
    expect((await store().audit.list()).map((e) => e.subject).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `s${i}`).sort());
  });
});
