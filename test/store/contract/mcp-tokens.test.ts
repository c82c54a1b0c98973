import { expect, it } from 'vitest';
import { describeStores } from '../../support/stores.js';

const at = (iso: string) => new Date(iso);

describeStores('MCP tokens', (store) => {
  const carol = {
    id: 'mt_0a1b2c3d',
    userId: 'U0CAROL',
    name: "Carol's laptop",
    createdAt: at('2026-11-18T06:00:00Z'),
    expiresAt: at('2027-02-16T06:00:00Z'),
    revokedAt: null,
  };

  it('finds a token by its hash only, lists the newest first, and refuses a hash or id given twice', async () => {
    await store().mcpTokens.add(carol, 'a'.repeat(64));
    const dan = { ...carol, id: 'mt_9f8e7d6c', userId: 'U0DAN', name: 'ci', createdAt: at('2026-11-19T06:00:00Z'), expiresAt: null };
    await store().mcpTokens.add(dan, 'b'.repeat(64));
    expect(await store().mcpTokens.byHash('a'.repeat(64))).toEqual(carol);
    expect(await store().mcpTokens.byHash('c'.repeat(64))).toBeNull();
    expect((await store().mcpTokens.list()).map((t) => t.id)).toEqual(['mt_9f8e7d6c', 'mt_0a1b2c3d']);
    await expect(store().mcpTokens.add({ ...dan, id: 'mt_other' }, 'a'.repeat(64))).rejects.toThrow();
    await expect(store().mcpTokens.add(dan, 'd'.repeat(64))).rejects.toThrow();
  });

  it('revokes once: a second revoke keeps the first moment, an unknown id is null', async () => {
    await store().mcpTokens.add(carol, 'a'.repeat(64));
    expect((await store().mcpTokens.revoke(carol.id, at('2026-11-20T10:00:00Z')))?.revokedAt).toEqual(at('2026-11-20T10:00:00Z'));
    expect((await store().mcpTokens.revoke(carol.id, at('2026-11-21T10:00:00Z')))?.revokedAt).toEqual(at('2026-11-20T10:00:00Z'));
    expect((await store().mcpTokens.byHash('a'.repeat(64)))?.revokedAt).toEqual(at('2026-11-20T10:00:00Z'));
    expect(await store().mcpTokens.revoke('mt_unknown', at('2026-11-20T10:00:00Z'))).toBeNull();
  });
});
