import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runGpuCheck } from '../../src/jobs/gpu-check.js';
import { deliverOutbox } from '../../src/outbox/deliver-outbox.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { daysOf } from '../../src/domain/period.js';
import { FakeSageMaker } from '../fakes/fake-sagemaker.js';
import { isolateAwsEnv, useSageMakerEndpoint } from '../support/aws-test-env.js';
import { spendRow, testDeps } from '../support/deps.js';
import { stopClick } from '../support/gpu-demo.js';
import {
  ALICE,
  BOB,
  CAROL,
  DAN_CPU,
  DOMAINS,
  ERIN_CLASSIC,
  NOW,
  SPACES,
  studioApps,
} from '../providers/aws/sagemaker-studio/studio-fixture.js';
import { idleDetails } from '../../templates/idle-alert.js';
import type { GpuFinding } from '../../src/domain/gpu-finding.js';

// SageMaker Studio's GPU apps through the idle check as it runs: the real SageMaker client against
// the fake, the real store, outbox and alert. Studio publishes no GPU utilisation, so "idle" is
// Studio's own record of user activity, said as such; the alert says what Studio's idle shutdown
// is set to, and `gpu.idle.notebooks: defer` leaves apps to it where it is on.

let fake: FakeSageMaker | undefined;
beforeEach(async () => {
  isolateAwsEnv();
  fake = await FakeSageMaker.start({ domains: DOMAINS, spaces: SPACES, apps: studioApps() });
  useSageMakerEndpoint(fake.endpoint);
  vi.stubEnv('AWS_REGION', 'eu-west-1');
});
afterEach(async () => {
  vi.unstubAllEnvs();
  fake?.assertNoUnexpectedCalls();
  await fake?.close();
  fake = undefined;
});

const OWNER = 'U0OWNER';

function studioDeps(notebooks?: 'alert' | 'defer', actions = false) {
  const built = testDeps(
    {
      teams: [{ id: 'research', name: 'Research', owners: [OWNER] }],
      sources: [],
      ...(actions ? { actions: { enabled: true } } : {}),
      gpu: {
        metrics: [],
        inventory: [{ type: 'sagemaker-studio', regions: ['eu-west-1'] }],
        ...(notebooks ? { idle: { notebooks } } : {}),
      },
    },
    NOW,
  );
  built.deps.gpu = buildGpuDeps(built.deps.config, {})!;
  return built;
}

describe('SageMaker Studio apps in the idle check', () => {
  it("alerts on GPU apps nobody has used for longer than the policy's hour, saying it is Studio's activity record and what its idle shutdown is set to", async () => {
    const { deps, chat } = studioDeps();
    const result = await runGpuCheck(deps);
    const arn = (app: typeof ALICE) => fake!.arnOf(app);
    const ids = result.findings.map((f) => f.instanceId).sort();
    // Carol used hers ten minutes ago; Dan's is a CPU app.
    expect(ids).toEqual([ALICE, BOB, ERIN_CLASSIC].map(arn).sort());
    expect(ids).not.toContain(arn(CAROL));
    expect(ids).not.toContain(arn(DAN_CPU));
    // Not reported as GPUs without metrics: Studio has none by design.
    expect(result.noMetrics).toEqual([]);

    const alice = result.findings.find((f) => f.instanceId === arn(ALICE))!;
    expect(alice.since).toBe(ALICE.lastUserActivity);
    expect(alice.idleMinutes).toBe(5 * 60);
    expect(alice.description).toContain("by SageMaker Studio's record of user activity: nobody has used it since; not GPU utilisation");
    expect(alice.notebook).toMatchObject({ platform: 'sagemaker-studio', culls: false });

    await deliverOutbox(deps);
    const text = chat.posted.map((p) => JSON.stringify(p.message.blocks)).join('\n');
    // No bill and no catalog price for ml.* types yet: the price is unknown, and no saving is promised.
    expect(text).toContain('**alice-lab (JupyterLab)** (ml.g5.xlarge): idle since 07:00 · price unknown: no saving promised');
    expect(text).not.toContain('$0.00 per day');
    // Stop deletes the app, and the confirmation says so.
    expect(text).toContain('This deletes SageMaker Studio app alice-lab (JupyterLab), saving an amount burnrate cannot tell');
    // Its Details say what Studio's own idle shutdown is set to, as for any notebook platform.
    const details = (f: GpuFinding) => JSON.stringify(idleDetails(f).blocks);
    expect(details(alice)).toContain('Notebook server: SageMaker Studio idle shutdown is off: nothing stops it but people.');
    const bob = result.findings.find((f) => f.instanceId === arn(BOB))!;
    expect(details(bob)).toContain('SageMaker Studio idle shutdown stops it after 120 minutes without activity');
    expect(details(bob)).toContain('`idle.notebooks: defer` in burnrate.yml leaves idle notebooks to it');
    expect(details(bob)).toContain('No price: neither the bill nor the price catalog prices it yet');
    await deps.store.close();
  });

  it('leaves apps to Studio with idle.notebooks: defer where its idle shutdown is on or unknown, never where it is off', async () => {
    const { deps } = studioDeps('defer');
    const result = await runGpuCheck(deps);
    expect(result.findings.map((f) => f.instanceId)).toEqual([fake!.arnOf(ALICE)]);
    await deps.store.close();
  });

  it("prices an app at the bill's rate for its ARN, and says the price is unknown where neither bill nor catalog has one", async () => {
    const { deps } = studioDeps();
    // Fourteen days of Bob's app on the bill, 24 hours a day (a hand-written bill of SageMaker usage).
    const days = daysOf({ start: '2026-11-07', end: '2026-11-21' });
    const perDay = [30.29, 30.29, 30.29, 28.5, 30.29, 30.29, 30.29, 30.29, 30.29, 30.29, 30.29, 30.29, 30.29, 30.29];
    await deps.store.importBatches([
      {
        scope: { source: 'test', billingPeriods: ['2026-11'] },
        rows: days.map((day, i) => ({
          ...spendRow('research', day, perDay[i]!),
          service: 'Amazon SageMaker',
          resourceId: fake!.arnOf(BOB),
          usageHours: 24,
        })),
        dataThrough: '2026-11-21T00:00:00Z',
      },
    ]);
    const result = await runGpuCheck(deps);
    const bob = result.findings.find((f) => f.instanceId === fake!.arnOf(BOB))!;
    const rate = perDay.reduce((s, x) => s + x, 0) / (24 * perDay.length);
    expect(bob.hourlyPrice).toBeCloseTo(rate, 9);
    expect(bob.burned).toBeCloseTo(Math.round(rate * 3 * 100) / 100, 2);
    expect(bob.description).toContain('at its billed rate');

    const alice = result.findings.find((f) => f.instanceId === fake!.arnOf(ALICE))!;
    expect(alice.hourlyPrice).toBe(0);
    expect(alice.description).toContain('no price: the price catalog has no ml.g5.xlarge');
    await deps.store.close();
  });

  it('deletes an idle app on Stop, once, authorised and audited; a second click deletes nothing more', async () => {
    const { deps } = studioDeps(undefined, true);
    await runGpuCheck(deps);
    const arn = fake!.arnOf(ALICE);
    await stopClick(deps, OWNER, arn);
    await stopClick(deps, OWNER, arn);
    expect(fake!.callsOf('DeleteApp').map((c) => c.input)).toEqual([
      { DomainId: ALICE.domainId, AppType: 'JupyterLab', AppName: 'default', SpaceName: 'alice-lab' },
    ]);
    expect(fake!.apps.find((a) => a.space === 'alice-lab')!.status).toBe('Deleting');
    // Someone outside the team's owners may not delete it.
    await stopClick(deps, 'U0STRANGER', fake!.arnOf(ERIN_CLASSIC));
    expect(fake!.callsOf('DeleteApp')).toHaveLength(1);
    // One audit line per click, newest first: the delete, the duplicate click, the refusal.
    const results = (await deps.store.audit.list()).map((e) => [e.userId, e.result]);
    expect(results).toEqual([
      ['U0STRANGER', 'refused'],
      [OWNER, 'duplicate'],
      [OWNER, 'ok'],
    ]);
    await deps.store.close();
  });
});
