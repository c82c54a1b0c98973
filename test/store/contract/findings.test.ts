import { expect, it } from 'vitest';
import { describeStores } from '../../support/stores.js';
import { budget, budgetOf, gpu, later, now, sweep, TEAMS_IN_BYTE_ORDER } from './finding-fixtures.js';

// The read side of the three tables of findings, written through recordRun as check runs write them.

describeStores('findings: budget findings', (store) => {
  it('lists the findings of the periods asked for, open and resolved, by id byte by byte', async () => {
    const reversed = [...TEAMS_IN_BYTE_ORDER].reverse();
    await store().recordRun(
      'findings',
      { opened: reversed.map((team) => budgetOf(team, '2026-11')), stillOpen: [], resolved: [] },
      [],
      now,
    );
    await store().recordRun(
      'findings',
      { opened: [budgetOf('ml', '2026-W47'), budgetOf('ml', '2026-10')], stillOpen: [], resolved: [] },
      [],
      now,
    );
    await store().recordRun('findings', { opened: [], stillOpen: [], resolved: [budgetOf('mlops', '2026-11').id] }, [], later(1));

    const november = await store().findings.listForPeriods(['2026-11']);
    expect(november.map((f) => [f.team, f.state])).toEqual(
      TEAMS_IN_BYTE_ORDER.map((team) => [team, team === 'mlops' ? 'resolved' : 'new']),
    );
    expect((await store().findings.listForPeriods(['2026-W47', '2026-10'])).map((f) => f.id)).toEqual([
      budgetOf('ml', '2026-10').id,
      budgetOf('ml', '2026-W47').id,
    ]);
    expect(await store().findings.listForPeriods(['2025-01'])).toEqual([]);
    expect((await store().findings.listOpen()).map((f) => f.id)).toEqual(
      [
        ...TEAMS_IN_BYTE_ORDER.filter((t) => t !== 'mlops').map((t) => budgetOf(t, '2026-11').id),
        budgetOf('ml', '2026-10').id,
        budgetOf('ml', '2026-W47').id,
      ].sort(byBytes),
    );
  });

  it('reads a finding back as recorded, with its state and sightings', async () => {
    await store().recordRun('findings', { opened: [budget], stillOpen: [], resolved: [] }, [], now);
    expect(await store().findings.get(budget.id)).toEqual({
      ...budget,
      state: 'new',
      firstSeen: now.toISOString(),
      lastSeen: now.toISOString(),
      resolvedAt: null,
    });
    expect(await store().findings.get('budget.actual:nobody:2026-11:80')).toBeNull();
  });
});

describeStores('findings: GPU and sweep findings', (store) => {
  it('lists open GPU and sweep findings by id byte by byte', async () => {
    const gpus = TEAMS_IN_BYTE_ORDER.map((team) => ({ ...gpu, id: `gpu.idle:${team}`, team }));
    const sweeps = TEAMS_IN_BYTE_ORDER.map((team) => ({ ...sweep, id: `sweep.spend:${team}:lr`, team }));
    await store().recordRun('gpuFindings', { opened: [...gpus].reverse(), stillOpen: [], resolved: [] }, [], now);
    await store().recordRun('sweepFindings', { opened: [...sweeps].reverse(), stillOpen: [], resolved: [] }, [], now);
    await store().recordRun('gpuFindings', { opened: [], stillOpen: [], resolved: [gpus[0]!.id] }, [], later(1));
    expect((await store().gpuFindings.listOpen()).map((f) => f.team)).toEqual(TEAMS_IN_BYTE_ORDER.slice(1));
    expect((await store().sweepFindings.listOpen()).map((f) => f.team)).toEqual(TEAMS_IN_BYTE_ORDER);
  });

  it('reads a sweep finding back, and opens a resolved one again from a new first sighting', async () => {
    await store().recordRun('sweepFindings', { opened: [sweep], stillOpen: [], resolved: [] }, [], now);
    await store().recordRun('sweepFindings', { opened: [], stillOpen: [{ ...sweep, value: 700 }], resolved: [] }, [], later(1));
    expect(await store().sweepFindings.get(sweep.id)).toEqual({
      ...sweep,
      value: 700,
      state: 'open',
      firstSeen: now,
      lastSeen: later(1),
      resolvedAt: null,
    });
    await store().recordRun('sweepFindings', { opened: [], stillOpen: [], resolved: [sweep.id] }, [], later(2));
    expect(await store().sweepFindings.get(sweep.id)).toMatchObject({ state: 'resolved', resolvedAt: later(2), lastSeen: later(1) });
    await store().recordRun('sweepFindings', { opened: [sweep], stillOpen: [], resolved: [] }, [], later(3));
    expect(await store().sweepFindings.get(sweep.id)).toMatchObject({ state: 'open', firstSeen: later(3), resolvedAt: null });
    expect(await store().sweepFindings.get('sweep.spend:ml:nothing')).toBeNull();
  });

  it('keeps the first sighting of a GPU finding opened again (its id is its idle period)', async () => {
    await store().recordRun('gpuFindings', { opened: [gpu], stillOpen: [], resolved: [] }, [], now);
    await store().recordRun('gpuFindings', { opened: [], stillOpen: [], resolved: [gpu.id] }, [], later(1));
    await store().recordRun('gpuFindings', { opened: [gpu], stillOpen: [], resolved: [] }, [], later(2));
    expect(await store().gpuFindings.get(gpu.id)).toMatchObject({ state: 'open', firstSeen: now, lastSeen: later(2), resolvedAt: null });
  });
});

function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
