/**
 * Keep buttons act once per click, like Snooze: a replayed Keep 4 h does not push the end, and a
 * shorter keep never replaces a longer one.
 */
import { describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { runGpuCheck } from '../../src/jobs/gpu-check.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { ALICE, BOB, findingOf, gpuDemo, press } from '../support/gpu-demo.js';

async function setup() {
  const t = gpuDemo();
  await runGpuCheck(t.deps);
  const alice = await findingOf(t.deps, 'alice-notebook');
  const instanceId = (await t.deps.store.gpuFindings.get(alice))!.instanceId;
  return { ...t, alice, instanceId };
}

async function keptUntil(deps: Deps, instanceId: string): Promise<string | undefined> {
  return (await deps.store.keeps.active(deps.clock())).find((k) => k.instanceId === instanceId)?.until.toISOString();
}

async function keepAudit(deps: Deps): Promise<string[]> {
  const entries = (await deps.store.audit.list()).filter((e) => e.action === 'instance.keep').sort((a, b) => a.id - b.id);
  return entries.map((e) => `${e.userId} ${e.result}`);
}

describe('Keep buttons, once per click', () => {
  it('a replayed Keep 4 h leaves the end where the first click put it and says who kept it', async () => {
    const { deps, setNow, alice, instanceId } = await setup();
    const first = await press(deps, ALICE, 'instance.keep:4h', alice, { for: '4h' });
    expect(first.privates).toEqual([]);
    expect(first.updates).toHaveLength(1);
    setNow('2026-11-18T06:10:00Z');
    const replay = await press(deps, BOB, 'instance.keep:4h', alice, { for: '4h' });
    expect(replay.updates).toEqual([]);
    expect(replay.text()).toBe(`Already kept running by ${ALICE} at 2026-11-18 06:00 UTC until 2026-11-18 10:00 UTC.`);
    expect(await keptUntil(deps, instanceId)).toBe('2026-11-18T10:00:00.000Z');
    expect(await keepAudit(deps)).toEqual([`${ALICE} ok`, `${BOB} duplicate`]);
  });

  it('Keep 4 h under a keep to the next working day changes nothing; the longer keep replaces a shorter one', async () => {
    const { deps, setNow, alice, instanceId } = await setup();
    // 13:00 in Berlin: the next working day starts tomorrow, later than 4 h from now.
    setNow('2026-11-18T12:00:00Z');
    await press(deps, ALICE, 'instance.keep:4h', alice, { for: '4h' });
    const longer = await press(deps, ALICE, 'instance.keep:workday', alice, { for: 'workday' });
    expect(longer.privates).toEqual([]);
    const workdayEnd = await keptUntil(deps, instanceId);
    expect(Date.parse(workdayEnd!)).toBeGreaterThan(Date.parse('2026-11-18T16:00:00Z'));

    const shorter = await press(deps, BOB, 'instance.keep:4h', alice, { for: '4h' });
    expect(renderPlainText(shorter.privates[0]!)).toContain(`Already kept running by ${ALICE}`);
    const again = await press(deps, BOB, 'instance.keep:workday', alice, { for: 'workday' });
    expect(again.privates).toHaveLength(1);
    expect(await keptUntil(deps, instanceId)).toBe(workdayEnd);
    expect(await keepAudit(deps)).toEqual([`${ALICE} ok`, `${ALICE} ok`, `${BOB} duplicate`, `${BOB} duplicate`]);
  });

  it('after a keep ends, Keep 4 h keeps it again', async () => {
    const { deps, setNow, alice, instanceId } = await setup();
    await press(deps, ALICE, 'instance.keep:4h', alice, { for: '4h' });
    setNow('2026-11-18T10:30:00Z');
    const later = await press(deps, ALICE, 'instance.keep:4h', alice, { for: '4h' });
    expect(later.privates).toEqual([]);
    expect(await keptUntil(deps, instanceId)).toBe('2026-11-18T14:30:00.000Z');
  });
});
