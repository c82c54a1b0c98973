import { describe, expect, it } from 'vitest';
import { deliverOutbox } from '../../src/outbox/deliver-outbox.js';
import { runMonthlyReview } from '../../src/jobs/monthly-review.js';
import { refreshSources } from '../../src/jobs/refresh-sources.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { buildSources } from '../../src/providers/registry.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import type { ImageBlock } from '../../templates/message.js';
import { RecordingChat } from '../fakes/recording-chat.js';
import { testDeps } from '../support/deps.js';

/** The review of November for llm-training on a chat port with these flags; its chain as posted. */
async function reviewOn(chat: RecordingChat) {
  const t = testDeps(demoConfig(), '2026-12-01T17:00:00Z');
  t.deps.chat = [chat];
  t.deps.sources = buildSources(t.deps.config).spend;
  t.deps.gpu = buildGpuDeps(t.deps.config)!;
  await refreshSources(t.deps);
  const [review] = await runMonthlyReview(t.deps, { teams: ['llm-training'] });
  await deliverOutbox(t.deps);
  await deliverOutbox(t.deps);
  const images = chat.posted.flatMap((p) => p.message.blocks).filter((b): b is ImageBlock => b.type === 'image');
  return { review: review!, replies: chat.posted.filter((p) => p.op === 'reply'), images };
}

describe("where the review chart goes, by the chat port's flags", () => {
  it('a platform that shows images inside messages gets the compact indexed PNG as a reply, under its limit', async () => {
    const { review, replies, images } = await reviewOn(new RecordingChat({ inlineImageBytes: 19_000 }));
    // The daily chart, the waste diagnosis with its own chart, and the top lines.
    expect(replies).toHaveLength(12);
    expect(images.map((i) => i.filename)).toEqual(['burnrate-llm-training-2026-11.png', 'burnrate-waste.png']);
    const png = Buffer.from(images[0]!.png, 'base64');
    expect(png[25]).toBe(3); // indexed colour
    expect(png.length).toBeLessThanOrEqual(19_000);
    expect(png.equals(review.chart.png)).toBe(false);
  });

  it('a file platform gets the full PNG; a compact chart over the limit, or no image support, means no chart at all', async () => {
    const files = await reviewOn(new RecordingChat({ files: true, inlineImageBytes: 19_000 }));
    expect(Buffer.from(files.images[0]!.png, 'base64').equals(files.review.chart.png)).toBe(true);

    const tooSmall = await reviewOn(new RecordingChat({ inlineImageBytes: 1_000 }));
    expect(tooSmall.images).toHaveLength(0);
    expect(tooSmall.replies).toHaveLength(11);

    const none = await reviewOn(new RecordingChat());
    expect(none.images).toHaveLength(0);
    expect(none.replies).toHaveLength(11);
  });
});

describe('the waste section of the review', () => {
  it("says the team's GPU waste in the summary and posts the diagnosis, with its figures, in the thread", async () => {
    const { review, replies } = await reviewOn(new RecordingChat());
    const waste = review.figures.waste!;
    expect(waste.period).toMatchObject({ start: '2026-11-01', end: '2026-12-01', scaledToMonth: false });
    expect(waste.row.team).toBe('llm-training');
    expect(waste.row.afterFixes).toBeLessThanOrEqual(waste.row.gpuSpend);
    const reply = replies.find((r) => r.message.summary.startsWith('GPU waste: '))!;
    expect(reply.message.summary).toContain(`of $${waste.row.gpuSpend.toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
    // One line, then the chart: the causes and caveats are /burnrate waste's.
    const text = reply.message.blocks.filter((b) => b.type === 'text');
    expect(text).toHaveLength(1);
    expect(text[0]!.text).toContain('`/burnrate waste llm-training 2026-11`');
    expect(text[0]!.text.split(/\s+/).length).toBeLessThanOrEqual(25);
  });
});
