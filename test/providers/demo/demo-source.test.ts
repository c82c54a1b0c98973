import { describe, expect, it } from 'vitest';
import { teamResolver } from '../../../src/domain/ownership.js';
import { UNTAGGED } from '../../../src/domain/spend.js';
import { demoConfig } from '../../../src/providers/demo/demo-config.js';
import { DemoSource } from '../../../src/providers/demo/demo-source.js';

const config = demoConfig();

describe('DemoSource', () => {
  const source = new DemoSource({ seed: 42, days: 45 });
  const ctx = { now: new Date('2026-03-18T09:30:00Z'), tagKeys: config.ownership.tagKeys, resolveTeam: teamResolver(config.teams) };

  it('is the demo source', () => {
    expect(source.id).toBe('demo');
    expect(source.type).toBe('demo');
    expect(new DemoSource({ seed: 1, days: 7, id: 'sandbox' }).id).toBe('sandbox');
  });

  it('pulls one batch replacing every month it covers, with data through the end of yesterday', async () => {
    const progress: [number, number][] = [];
    const batches = await source.pull({ ...ctx, onProgress: (done, total) => progress.push([done, total]) });
    expect(batches).toHaveLength(1);
    const [batch] = batches;
    expect(batch!.scope).toEqual({ source: 'demo', billingPeriods: ['2026-02', '2026-03'] });
    expect(batch!.dataThrough).toBe('2026-03-18T00:00:00.000Z');
    // Usage through yesterday; the month's support fee, billed on the 1st, covers the rest of March.
    const days = [...new Set(batch!.rows.filter((r) => r.chargeFrequency !== 'Recurring').map((r) => r.day))].sort();
    expect(days[0]).toBe('2026-02-01');
    expect(days.at(-1)).toBe('2026-03-17');
    const ahead = batch!.rows.filter((r) => r.day > '2026-03-17');
    expect(new Set(ahead.map((r) => r.service))).toEqual(new Set(['AWS Support (Business)']));
    expect(ahead.at(-1)?.day).toBe('2026-03-31');
    expect(progress.at(-1)).toEqual([batch!.rows.length, batch!.rows.length]);
  });

  it('resolves teams with the context it is given', async () => {
    const [withTeams] = await source.pull(ctx);
    expect(new Set(withTeams!.rows.map((r) => r.team))).toContain('llm-training');
    // With a tag key nobody uses, everything is untagged.
    const [noKeys] = await source.pull({ ...ctx, tagKeys: ['cost-center'] });
    expect(new Set(noKeys!.rows.map((r) => r.team))).toEqual(new Set([UNTAGGED]));
  });

  it('pulls the same rows twice', async () => {
    expect(await source.pull(ctx)).toEqual(await source.pull(ctx));
  });
});
