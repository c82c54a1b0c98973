import { describe, expect, it } from 'vitest';
import type { GpuFinding } from '../../src/domain/gpu-finding.js';
import { idleAlert, idleDetails } from '../../templates/idle-alert.js';
import type { ActionsBlock } from '../../templates/message.js';
import { renderPlainText } from '../../templates/render/plain-text.js';

const block: GpuFinding = {
  id: 'gpu.idle:i-0cb00000000000001:2026-11-18T01:00:00.000Z',
  kind: 'gpu.idle',
  team: 'research',
  instanceId: 'i-0cb00000000000001',
  name: 'llm-pretrain-block',
  instanceType: 'p5.48xlarge',
  workload: 'training',
  protected: false,
  since: '2026-11-18T01:00:00.000Z',
  idleMinutes: 300,
  burned: 275.2,
  perDay: 1320.96,
  hourlyPrice: 55.04,
  gpus: 8,
  stalledGpus: 0,
  missingMinutes: 0,
  description: 'idle since 01:00',
  prepaid: { kind: 'capacity-block', until: '2026-11-20T11:30:00.000Z' },
};

describe('an idle alert on prepaid capacity', () => {
  it('promises no saving from Stop: it says the capacity is prepaid and to use it or release it', () => {
    const message = idleAlert({ teamName: 'Research', items: [{ finding: block }], dryRun: false, mode: 'notify' });
    const text = renderPlainText(message);
    // The alert says it short; its Details say until when, and what to do instead.
    expect(text).toContain('prepaid: stopping saves nothing');
    expect(text).not.toContain('$1,320.96 per day');
    expect(renderPlainText(idleDetails(block))).toMatch(
      /Prepaid until .+: stopping saves nothing; put work on it, or release it at the end\./,
    );
    const stop = message.blocks
      .flatMap((b) => (b.type === 'actions' ? (b as ActionsBlock).buttons : []))
      .find((b) => b.label === 'Stop now')!;
    expect(stop.confirm!.text).toContain('saving nothing: it is prepaid');
    expect(stop.confirm!.text).not.toMatch(/saving \$/);
  });

  it('keeps the daily saving on capacity paid by the hour', () => {
    const { prepaid: _p, ...onDemand } = block;
    const text = renderPlainText(idleAlert({ teamName: 'Research', items: [{ finding: onDemand }], dryRun: false, mode: 'notify' }));
    expect(text).toContain('$1,320.96 per day');
  });
});
