import { describe, expect, it } from 'vitest';
import type { GpuFinding } from '../../src/domain/gpu-finding.js';
import { dismissedProposal, idleFor, proposalLine, proposedAlert } from '../../templates/action-proposal.js';
import { idleAlert } from '../../templates/idle-alert.js';
import type { Message } from '../../templates/message.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { describeRenderings } from '../support/renderings.js';
import { h } from './hostile-messages.js';

const trainer: GpuFinding = {
  id: 'gpu.idle:i-0c3d:2026-11-17T16:00:00.000Z',
  kind: 'gpu.idle',
  team: 'llm-training',
  instanceId: 'i-0c3d',
  name: 'trainer-3',
  instanceType: 'g6e.2xlarge',
  workload: 'training',
  protected: false,
  since: '2026-11-17T16:00:00.000Z',
  idleMinutes: 840,
  burned: 36.17,
  perDay: 62,
  hourlyPrice: 2.5833,
  gpus: 1,
  stalledGpus: 0,
  missingMinutes: 0,
  description: 'idle since 17:00 yesterday',
};
const alert = idleAlert({ teamName: 'LLM Training', items: [{ finding: trainer }], dryRun: false, mode: 'notify' });

const messages: Record<string, Message> = {
  'proposal to stop': proposedAlert(alert, {
    id: '7f1c2a9e-8d3b-4c55-9a10-2b7e4d6f8a01',
    action: 'stop',
    proposer: 'Carol',
    instance: 'trainer-3',
    figures: `idle ${idleFor(840)}, $62.00/day`,
    reason: 'nobody has used it since Friday',
  }),
  'proposal to keep, hostile reason': proposedAlert(alert, {
    id: 'b2c3d4e5-0000-4000-8000-000000000000',
    action: 'keep',
    proposer: h('Carol'),
    instance: 'trainer-3',
    figures: `idle ${idleFor(3_000)}, $62.00/day`,
    reason: h('a reason'),
  }),
  'proposal dismissed': dismissedProposal(
    proposalLine({ action: 'stop', proposer: h('Carol'), instance: 'trainer-3', figures: 'nothing was done' }),
    h('Dan'),
    new Date('2026-11-18T07:00:00Z'),
  ),
};

describeRenderings(messages);

describe('a proposed alert', () => {
  it('says who proposes what, then shows the idle alert with its own buttons', () => {
    const message = messages['proposal to stop']!;
    expect(message.summary).toBe('An assistant used by Carol proposes stopping trainer-3: idle 14 h, $62.00/day');
    const text = renderPlainText(message);
    expect(text.indexOf('proposes stopping')).toBeLessThan(text.indexOf('idle since 17:00 yesterday'));
    // The alert's own buttons, then Dismiss, which names the proposal.
    const actions = message.blocks.filter((b) => b.type === 'actions');
    expect(actions.slice(0, -1)).toEqual(alert.blocks.filter((b) => b.type === 'actions'));
    expect(actions.at(-1)).toEqual({
      type: 'actions',
      buttons: [{ action: 'proposal.dismiss', label: 'Dismiss the proposal', value: '{"p":"7f1c2a9e-8d3b-4c55-9a10-2b7e4d6f8a01"}' }],
    });
    expect(renderPlainText(messages['proposal to keep, hostile reason']!)).toContain('proposes keeping trainer-3 running: idle 2 d 2 h');
  });
});
