import { describe, expect, it } from 'vitest';
import type { GpuFinding } from '../../src/domain/gpu-finding.js';
import { idleAlert, idleDetails } from '../../templates/idle-alert.js';
import { idleStatus } from '../../templates/idle-status.js';
import type { ActionsBlock, Message } from '../../templates/message.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { teamPicker } from '../../templates/team-picker.js';
import { describeRenderings } from '../support/renderings.js';
import { studioStopWording } from '../../src/providers/aws/sagemaker-studio/studio-stop-wording.js';
import { firstSectionWords } from '../support/first-section.js';
import { unreadInventoryNotice } from '../../templates/unread-inventory-notice.js';

/** A Studio inventory denied its list, as the SageMaker fake answers and explainAwsError words it. */
const UNREAD_STUDIO = {
  source: 'sagemaker-studio (eu-west-1)',
  error:
    "SageMaker in eu-west-1 denied sagemaker:ListApps to burnrate's AWS credentials: User: arn:aws:sts::123456789012:assumed-role/burnrate/x is not authorized to perform: sagemaker:ListApps",
};

const notebook: GpuFinding = {
  id: 'gpu.idle:i-0a1b2c3d4e5f60718:2026-11-17T18:40:00.000Z',
  kind: 'gpu.idle',
  team: 'ml-research',
  instanceId: 'i-0a1b2c3d4e5f60718',
  name: 'alice-notebook',
  instanceType: 'g5.2xlarge',
  workload: 'notebook',
  protected: false,
  since: '2026-11-17T18:40:00.000Z',
  idleMinutes: 680,
  burned: 13.76,
  perDay: 29.14,
  hourlyPrice: 1.2142,
  gpus: 1,
  stalledGpus: 0,
  missingMinutes: 0,
  description: 'idle since 19:40 yesterday',
};
const stalled: GpuFinding = {
  ...notebook,
  id: 'gpu.stalled:i-9',
  kind: 'gpu.stalled',
  team: null,
  instanceId: 'i-9',
  name: null,
  instanceType: 'p5.48xlarge',
  gpus: 8,
  stalledGpus: 8,
  burned: 1_234.5,
  perDay: 2_362.08,
  protected: true,
  description: 'idle all weekend',
};

/** 70% of its bill paid by a Savings Plan: stopping it saves 30% of a day, $8.74 of $29.14. */
const covered: GpuFinding = {
  ...notebook,
  id: 'gpu.idle:covered',
  covered: { share: 0.7, by: 'Savings Plan', uncoveredPerDay: 8.74 },
};

/** A SageMaker Studio app: idle by Studio's activity record, no price on the bill or in the catalog yet, Studio's idle shutdown off. */
const studioApp: GpuFinding = {
  ...notebook,
  id: 'gpu.idle:arn:aws:sagemaker:eu-west-1:123456789012:app/d-shutdownoff1/alice-lab/jupyterlab/default:2026-11-17T18:40:00.000Z',
  instanceId: 'arn:aws:sagemaker:eu-west-1:123456789012:app/d-shutdownoff1/alice-lab/jupyterlab/default',
  name: 'alice-lab (JupyterLab)',
  instanceType: 'ml.g5.xlarge',
  burned: 0,
  perDay: 0,
  hourlyPrice: 0,
  description:
    "idle since 19:40 yesterday (by SageMaker Studio's record of user activity: nobody has used it since; not GPU utilisation, which it does not publish) (no price: the price catalog has no ml.g5.xlarge with 1× A10G; priced by the bill once it shows the app (or add the type to the catalog))",
  notebook: { platform: 'sagemaker-studio', culling: 'SageMaker Studio idle shutdown is off: nothing stops it but people', culls: false },
};

const messages: Record<string, Message> = {
  'idle-alert notify': idleAlert({ teamName: 'ML Research', items: [{ finding: notebook }], dryRun: true, mode: 'notify' }),
  'idle-alert approve, settled': idleAlert({
    teamName: 'ML Research',
    items: [{ finding: notebook, settled: true, note: 'Kept running by U1 until 2026-11-18 10:00 UTC' }],
    dryRun: false,
    mode: 'approve',
  }),
  'idle-alert auto': idleAlert({
    teamName: 'ML Research',
    items: [{ finding: notebook, autoStopAt: new Date('2026-11-18T07:00:00Z') }],
    dryRun: false,
    mode: 'auto',
  }),
  'idle-alert covered by a Savings Plan': idleAlert({
    teamName: 'ML Research',
    items: [{ finding: covered }],
    dryRun: false,
    mode: 'notify',
  }),
  'idle details, covered by a Savings Plan': idleDetails(covered),
  'idle-alert SageMaker Studio app without a price': idleAlert({
    teamName: 'ML Research',
    items: [{ finding: studioApp, stopWording: studioStopWording(studioApp.instanceId)! }, { finding: notebook }],
    dryRun: true,
    mode: 'notify',
  }),
  'idle details, SageMaker Studio app without a price': idleDetails(studioApp),
  'idle-status with an app without a price': idleStatus([notebook, studioApp], 'ML Research'),
  'idle-alert unowned': idleAlert({ teamName: 'Unowned GPUs', items: [{ finding: stalled }], dryRun: true, mode: 'notify', unowned: true }),
  'idle details': idleDetails({
    ...notebook,
    description: 'idle since 19:40 yesterday (at least: idle through all 24 h of metrics read, so the amount burned is at least this too)',
    evidence: { utilMeanPct: 0.4, utilMaxPct: 3, memUsedGiB: 1.2, powerWattsPerGpu: 61 },
  }),
  'idle details, stalled and protected': idleDetails({ ...stalled, missingMinutes: 45 }),
  'idle-status': idleStatus([notebook, stalled], 'all teams'),
  'idle-status with an inventory not read': idleStatus([notebook], 'ML Research', [], [UNREAD_STUDIO]),
  'unread-inventory-notice': unreadInventoryNotice('ML Research', UNREAD_STUDIO),
  'team-picker': teamPicker({
    instance: 'alice-notebook',
    teams: Array.from({ length: 7 }, (_, i) => ({ id: `team-${i}`, name: `Team <${i}> & Co` })),
    button: (team) => ({ action: `instance.reroute:${team}`, value: JSON.stringify({ f: notebook.id, to: team }) }),
  }),
};

describeRenderings(messages);

describe('idle alert wording', () => {
  const buttons = (message: Message) =>
    message.blocks.filter((b): b is ActionsBlock => b.type === 'actions').flatMap((b) => b.buttons.map((x) => x.label));

  it('names the mode in its buttons: Stop now, Approve stop; Not ours, or Ours for an unowned instance', () => {
    expect(buttons(messages['idle-alert notify']!)).toEqual(['Stop now', 'Keep 4 h', 'Keep until next working day', 'Not ours', 'Details']);
    expect(buttons(messages['idle-alert auto']!)[0]).toBe('Stop now');
    expect(buttons(idleAlert({ teamName: 'x', items: [{ finding: notebook }], dryRun: false, mode: 'approve' }))[0]).toBe('Approve stop');
    expect(buttons(messages['idle-alert unowned']!).at(-2)).toBe('Ours: pick the team');
    // A settled instance keeps only Details: what it did while idle stays reachable.
    expect(buttons(messages['idle-alert approve, settled']!)).toEqual(['Details']);
  });

  it('announces the automatic stop and says a protected instance is never stopped', () => {
    expect(renderPlainText(messages['idle-alert auto']!)).toContain(
      'Stops automatically at 2026-11-18 07:00 UTC unless someone clicks Keep.',
    );
    expect(renderPlainText(messages['idle-alert unowned']!)).toContain('protected: never stopped');
    expect(renderPlainText(messages['idle details, stalled and protected']!)).toContain(
      'Protected (burnrate:protect=true): never stopped by burnrate.',
    );
  });

  it('keeps each instance within 25 words before its buttons; the caveats and the figures behind "idle" are in its Details', () => {
    const caveat = '(at least: idle through all 24 h of metrics read, so the amount burned is at least this too)';
    const workload: GpuFinding = {
      ...stalled,
      id: 'gpu.stalled:k8s',
      instanceId: 'k8s:gke-research/research/Deployment/llm-finetune-serving-canary',
      name: 'research/llm-finetune-serving-canary',
      team: 'ml-research',
      protected: false,
      description: `idle since 18:05 on Friday ${caveat} (catalog price of us-east-1: its own region is not in the catalog)`,
      evidence: { utilMeanPct: 0.4, utilMaxPct: 3, memUsedGiB: 71.5, powerWattsPerGpu: 88 },
      missingMinutes: 30,
    };
    const prepaid: GpuFinding = {
      ...notebook,
      id: 'gpu.idle:block',
      prepaid: { kind: 'capacity-block', until: '2026-11-20T11:30:00.000Z' },
    };
    const alerts = [
      ...Object.entries(messages).filter(([name]) => name.startsWith('idle-alert')),
      [
        'every kind at once',
        idleAlert({
          teamName: 'ML Research',
          items: [
            { finding: workload, autoStopAt: new Date('2026-11-18T07:00:00Z') },
            { finding: prepaid },
            { finding: covered },
            { finding: stalled },
            { finding: notebook, settled: true, note: 'Stopped by U1 at 2026-11-18 08:00 UTC' },
          ],
          dryRun: false,
          mode: 'auto',
        }),
      ] as const,
    ];
    for (const [name, alert] of alerts) for (const words of firstSectionWords(alert).items) expect(words, name).toBeLessThanOrEqual(25);
    const details = renderPlainText(idleDetails(workload));
    for (const said of [
      caveat,
      'catalog price of us-east-1',
      'GPUs while idle: 0.4% busy on average (at most 3%)',
      '30 min of it had no GPU metrics',
    ])
      expect(details).toContain(said);
  });

  it('puts at most five teams on a row of the picker', () => {
    const rows = messages['team-picker']!.blocks.filter((b): b is ActionsBlock => b.type === 'actions');
    expect(rows.map((r) => r.buttons.length)).toEqual([5, 2]);
  });
});

describe('an unread GPU inventory on a phone', () => {
  const EC2_THREE_REGIONS = { source: 'ec2 (us-east-1, eu-west-1, ap-south-1)', error: UNREAD_STUDIO.error };

  it("the notice's first section (before its divider) is at most 25 words, with the error below it", () => {
    for (const unread of [UNREAD_STUDIO, EC2_THREE_REGIONS]) {
      const notice = unreadInventoryNotice('ML Research', unread);
      expect(firstSectionWords(notice).lead).toBeLessThanOrEqual(25);
      expect(renderPlainText(notice)).toContain('sagemaker:ListApps');
    }
  });

  it("an answer's Not checked line is at most 25 words; the error follows on its own line", () => {
    const answer = idleStatus([notebook], 'ML Research', [], [UNREAD_STUDIO, EC2_THREE_REGIONS]);
    const lines = answer.blocks.filter((b) => b.type === 'text' && b.text.startsWith('**Not checked**'));
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(firstSectionWords({ summary: '', blocks: [line] }).lead).toBeLessThanOrEqual(25);
    expect(renderPlainText(answer)).toContain('Last read failed: SageMaker in eu-west-1 denied sagemaker:ListApps');
  });
});
