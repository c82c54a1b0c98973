import { describe, expect, it } from 'vitest';
import { dispatch } from '../../src/inbound/dispatcher.js';
import { daysOf } from '../../src/domain/period.js';
import type { ImageBlock } from '../../templates/message.js';
import { renderHtml } from '../../templates/render/html.js';
import { spendRow, testDeps } from '../support/deps.js';
import { command } from '../support/recording-reply.js';

const CONFIG = {
  teams: [{ id: 'ml', name: 'ML', owners: ['U1'], budget: { monthly: 1000, thresholds: [80] } }],
};

async function answered(text: string) {
  const { deps } = testDeps(CONFIG, '2026-11-21T09:00:00Z');
  await deps.store.importBatches([
    {
      scope: { source: 'test', billingPeriods: ['2026-11'] },
      rows: daysOf({ start: '2026-11-01', end: '2026-11-21' }).map((d) => spendRow('ml', d, 40)),
      dataThrough: '2026-11-21T00:00:00Z',
    },
  ]);
  const asked = command('U1', text);
  await dispatch(deps, asked);
  return asked.reply.privates[0]!;
}

describe('/burnrate spend … by day', () => {
  it('carries the running total against the budget, with the forecast, as a picture after the table', async () => {
    const message = await answered('spend ml this-month by day');
    const image = message.blocks.find((b): b is ImageBlock => b.type === 'image')!;
    expect(Buffer.from(image.png, 'base64').subarray(1, 4).toString('ascii')).toBe('PNG');
    expect(image.alt).toContain(`$${(20 * 40).toLocaleString('en-US')}.00 in all`);
    expect(message.blocks.findIndex((b) => b.type === 'image')).toBeGreaterThan(message.blocks.findIndex((b) => b.type === 'table'));
    // The console shows it inline.
    expect(renderHtml(message)).toContain('<img src="data:image/png;base64,');
  });

  it('has no picture for any other split', async () => {
    const message = await answered('spend ml this-month by service');
    expect(message.blocks.some((b) => b.type === 'image')).toBe(false);
  });
});
