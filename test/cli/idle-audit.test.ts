import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/sqlite/open-sqlite-store.js';
import { cli, workDir } from '../support/run-cli.js';

/**
 * 18 Nov 2026 06:00Z: in the demo, ml-research has two idle notebooks and its old V100 box, llm-training a
 * stalled node, inference and vision an endpoint nobody calls; the demo cluster adds four idle workloads.
 */
const NOW = '2026-11-18T06:00:00Z';

describe('burnrate idle and burnrate audit', () => {
  it('idle lists the idle GPUs of the demo with idle time and cost, as text and JSON', async () => {
    const cwd = workDir();
    const text = await cli(['idle'], { cwd, now: NOW });
    expect(text.err).toBe('');
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^Idle GPUs of all teams: 13, \$[\d,.]+ per day/);
    expect(text.out).toContain('alice-notebook');
    expect(text.out).toContain('llm-pretrain-a3-0');
    expect(text.out).toMatch(/tmp-debug-box +g5\.12xlarge +\(none\)/);

    const json = await cli(['idle', '--team', 'ml-research', '--json'], { cwd, now: NOW });
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.out) as { idle: { name: string; team: string; burned: number; perDay: number; since: string }[] };
    expect(parsed.idle.map((f) => f.name).sort()).toEqual(['alice-notebook', 'research-legacy-v100', 'research-shared-notebook']);
    expect(parsed.idle.every((f) => f.team === 'ml-research' && f.perDay > 0 && f.burned > 0)).toBe(true);

    const bad = await cli(['idle', '--team', 'nope'], { cwd, now: NOW });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('unknown team "nope"');
  });

  it('audit lists the audit log, oldest first, from --since on', async () => {
    const cwd = workDir();
    const db = join(cwd, 'audit.db');
    const store = openStore(db);
    await store.audit.record({
      at: new Date('2026-11-17T10:00:00Z'),
      platform: 'slack',
      userId: 'U1',
      action: 'instance.stop',
      subject: 'gpu.idle:i-1:x',
      result: 'dry-run',
      detail: 'would stop',
    });
    await store.audit.record({
      at: new Date('2026-11-18T10:00:00Z'),
      platform: 'slack',
      userId: 'U2',
      action: 'instance.keep',
      subject: 'gpu.idle:i-2:x',
      result: 'ok',
    });
    await store.close();

    const text = await cli(['audit', '--db', db], { cwd, now: NOW });
    expect(text.code).toBe(0);
    expect(text.out.trim().split('\n')).toEqual([
      '2026-11-17T10:00:00.000Z  slack:U1  instance.stop  gpu.idle:i-1:x  dry-run  would stop',
      '2026-11-18T10:00:00.000Z  slack:U2  instance.keep  gpu.idle:i-2:x  ok',
    ]);
    const json = await cli(['audit', '--db', db, '--since', '2026-11-18', '--json'], { cwd, now: NOW });
    expect(JSON.parse(json.out)).toEqual([
      {
        id: 2,
        at: '2026-11-18T10:00:00.000Z',
        platform: 'slack',
        userId: 'U2',
        action: 'instance.keep',
        subject: 'gpu.idle:i-2:x',
        result: 'ok',
        detail: null,
      },
    ]);
    expect((await cli(['audit', '--db', db, '--since', 'yesterday'], { cwd, now: NOW })).code).toBe(2);
  });
});
