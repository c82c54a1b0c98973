import { describe, expect, it } from 'vitest';
import type { GpuFinding } from '../../src/domain/gpu-finding.js';
import { idleFor, proposedAlert } from '../../templates/action-proposal.js';
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
    action: 'stop',
    proposer: 'Carol',
    instance: 'trainer-3',
    figures: `idle ${idleFor(840)}, $62.00/day`,
    reason: 'nobody has used it since Friday',
  }),
  'proposal to keep, hostile reason': proposedAlert(alert, {
    action: 'keep',
    proposer: h('Carol'),
    instance: 'trainer-3',
    figures: `idle ${idleFor(3_000)}, $62.00/day`,
    reason: h('a reason'),
  }),
};

describeRenderings(messages);

describe('a proposed alert', () => {
  it('says who proposes what, then shows the idle alert with its own buttons', () => {
    const message = messages['proposal to stop']!;
    expect(message.summary).toBe('An assistant used by Carol proposes stopping trainer-3: idle 14 h, $62.00/day');
    const text = renderPlainText(message);
    expect(text.indexOf('proposes stopping')).toBeLessThan(text.indexOf('idle since 17:00 yesterday'));
    expect(message.blocks.filter((b) => b.type === 'actions')).toEqual(alert.blocks.filter((b) => b.type === 'actions'));
    expect(renderPlainText(messages['proposal to keep, hostile reason']!)).toContain('proposes keeping trainer-3 running: idle 2 d 2 h');
  });
});
