import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anomalyCheck } from '../../src/checks/anomalies/definition.js';
import { dispatch } from '../../src/inbound/dispatcher.js';
import { runCheck } from '../../src/jobs/run-check.js';
import { testDeps } from '../support/deps.js';
import { dispatchClick } from '../support/dispatch-click.js';
import { CAROL } from '../support/demo-org.js';
import { command } from '../support/recording-reply.js';
import { cli, workDir } from '../support/run-cli.js';
import { importRunawayBill, RUNAWAY_RESOURCE, sweepRow } from '../support/runaway-bill.js';

// /burnrate anomalies and burnrate anomalies read the same recorded anomalies: the same figures,
// with how each was answered.

const CONFIG = 'teams:\n  - id: ml\n    name: ML\n    owners: [U0DEMOCAROL]\n';
const NOW = '2026-11-10T09:00:00Z';

async function recorded(dbPath = ':memory:') {
  const t = testDeps({ teams: [{ id: 'ml', name: 'ML', owners: [CAROL] }] }, NOW, dbPath);
  await importRunawayBill(t.deps, '2026-11-10', [sweepRow('2026-11-08', 4200), sweepRow('2026-11-09', 5000)]);
  const [finding] = (await runCheck(t.deps, anomalyCheck())).findings;
  await dispatchClick(t.deps, CAROL, 'anomaly.not-expected', { f: finding!.id });
  return { ...t, finding: finding! };
}

async function ask(deps: Parameters<typeof dispatch>[0], text: string) {
  const interaction = command(CAROL, text);
  await dispatch(deps, interaction);
  return interaction.reply;
}

describe('anomalies in chat and on the command line', () => {
  it('/burnrate anomalies lists the anomaly with why it moved and how it was answered', async () => {
    const { deps } = await recorded();
    const answer = (await ask(deps, 'anomalies ml 14d')).text();
    expect(answer).toContain('Spend anomalies of ml, last 14 days');
    expect(answer).toContain(`from resource ${RUNAWAY_RESOURCE}`);
    expect(answer).toContain('open, answered Not expected');
  });

  it('refuses what it cannot read, saying what to write', async () => {
    const { deps } = await recorded();
    expect((await ask(deps, 'anomalies ml 14d extra')).text()).toContain('Usage: /burnrate anomalies [team] [days, e.g. 14d]');
    expect((await ask(deps, 'anomalies 0d')).text()).toContain('expected 1 to 366 days');
  });

  it('burnrate anomalies --json gives the same figures the chat answer shows', async () => {
    const dir = workDir();
    const db = join(dir, 'burnrate.db');
    const { deps, finding } = await recorded(db);
    await deps.store.close();
    writeFileSync(join(dir, 'burnrate.yml'), CONFIG);
    const result = await cli(['anomalies', '--team', 'ml', '--days', '14', '--json', '--config', join(dir, 'burnrate.yml'), '--db', db], {
      now: NOW,
    });
    expect(result.err).toBe('');
    const listing = JSON.parse(result.out) as { anomalies: { id: string; excess: number; actual: number; answer: { verdict: string } }[] };
    expect(listing.anomalies.map((a) => [a.id, a.actual, a.excess, a.answer.verdict])).toEqual([
      [finding.id, finding.actual, finding.excess, 'not-expected'],
    ]);
    const bad = await cli(['anomalies', '--days', 'a week', '--config', join(dir, 'burnrate.yml'), '--db', db], { now: NOW });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--days must be a whole number from 1 to 366');
  });

  it('/burnrate anomalies expected takes a reason, records it once and audits it like the button', async () => {
    const t = testDeps({ teams: [{ id: 'ml', name: 'ML', owners: [CAROL] }] }, NOW);
    await importRunawayBill(t.deps, '2026-11-10', [sweepRow('2026-11-08', 4200), sweepRow('2026-11-09', 5000)]);
    const [finding] = (await runCheck(t.deps, anomalyCheck())).findings;
    const first = (await ask(t.deps, `anomalies expected ${finding!.id} planned launch of the 70B run`)).text();
    expect(first).toContain('answered Expected (planned launch of the 70B run)');
    expect(first).toContain(`a rise of up to 5000.00 USD a day in resource ${RUNAWAY_RESOURCE}`);
    expect((await t.deps.store.anomalyFindings.get(finding!.id))!.answer).toMatchObject({
      verdict: 'expected',
      reason: 'planned launch of the 70B run',
    });
    expect((await ask(t.deps, `anomalies expected ${finding!.id}`)).text()).toContain(`Already answered Expected by ${CAROL}`);
    expect((await t.deps.store.audit.list()).map((e) => `${e.action} ${e.result}`)).toEqual([
      'anomaly.expected duplicate',
      'anomaly.expected ok',
    ]);
    expect((await ask(t.deps, 'anomalies expected 14d')).text()).toContain('expected an anomaly id');
  });
});
