import { describe, expect, it } from 'vitest';
import { dispatch } from '../../src/inbound/dispatcher.js';
import { recommendationsFor } from '../../src/snapshots/recommendations-for.js';
import { buildGpuDeps } from '../../src/providers/gpu-registry.js';
import { demoConfig } from '../../src/providers/demo/demo-config.js';
import { renderPlainText } from '../../templates/render/plain-text.js';
import { cli } from '../support/run-cli.js';
import { testDeps } from '../support/deps.js';
import { command } from '../support/recording-reply.js';

const T = '2026-11-18T06:00:00Z';

async function demo() {
  const t = testDeps(demoConfig(), T);
  t.deps.gpu = buildGpuDeps(t.deps.config)!;
  const byName = new Map((await t.deps.gpu.inventory()).instances.map((i) => [i.name, i.instanceId]));
  return { deps: t.deps, id: (name: string) => byName.get(name)! };
}

describe('recommendationsFor(cost lines), the seam the monthly review calls', () => {
  it('gives the demo notebook a right-size recommendation with its message, and the on-demand trainer a spot one', async () => {
    const { deps, id } = await demo();
    const [notebooks, trainers] = await recommendationsFor(deps, [
      { resourceId: id('dan-notebook') },
      { resourceId: id('research-train-fra') },
    ]);
    const [notebook, trainer] = [notebooks![0], trainers![0]];
    expect(notebook!.recommendation).toMatchObject({ kind: 'right-size', team: 'llm-training', current: { instanceType: 'g6e.2xlarge' } });
    expect(notebook!.recommendation.proposed.hourly).toBeLessThan(notebook!.recommendation.current.hourly);
    expect(renderPlainText(notebook!.message)).toMatch(/^Right-size dan-notebook to [\w.]+: save \$[\d,.]+ a month/);
    expect(trainer!.recommendation.kind).toBe('spot');
    expect(trainer!.message.blocks.some((b) => b.type === 'actions' && b.buttons[0]!.action === 'spot.approve')).toBe(true);
  });

  it('reads the inventory and the metrics once for all the lines, and answers line by line in order', async () => {
    const { deps, id } = await demo();
    const reads = { inventory: 0, metrics: 0 };
    const gpu = deps.gpu!;
    const inventory = gpu.inventory;
    gpu.inventory = () => (reads.inventory++, inventory());
    for (const source of gpu.metrics) {
      const fetch = source.fetch.bind(source);
      source.fetch = (range) => (reads.metrics++, fetch(range));
    }
    const names = ['research-train-fra', 'dan-notebook', 'serve-llm-primary', 'dan-notebook'];
    const lines = [...names.map((name) => ({ resourceId: id(name) })), { resourceId: null }];
    const answers = await recommendationsFor(deps, lines);
    expect(reads).toEqual({ inventory: 1, metrics: gpu.metrics.length });
    expect(answers.map((list) => list.map((r) => r.recommendation.kind))).toEqual([['spot'], ['right-size'], [], ['right-size'], []]);
    // The same recommendations as asked one line at a time.
    for (const [index, line] of lines.entries()) expect((await recommendationsFor(deps, [line]))[0]).toEqual(answers[index]);
  });

  it('has nothing for lines that bill no GPU instance, busy inference, or an installation without GPU metrics', async () => {
    const { deps, id } = await demo();
    expect(
      await recommendationsFor(deps, [
        { resourceId: null },
        { resourceId: 'arn:aws:s3:::datasets' },
        { resourceId: id('serve-llm-primary') },
      ]),
    ).toEqual([[], [], []]);
    expect(await recommendationsFor(deps, [])).toEqual([]);
    delete deps.gpu;
    expect(await recommendationsFor(deps, [{ resourceId: id('dan-notebook') }])).toEqual([[]]);
  });
});

describe('asking for recommendations', () => {
  it("/burnrate recommend lists the caller's teams only", async () => {
    const { deps } = await demo();
    const asked = command('U0DEMOALICE', 'recommend');
    await dispatch(deps, asked);
    const text = asked.reply.text();
    expect(text).toMatch(/^\d+ recommendations? for ml-research: up to \$[\d,.]+ a month/);
    expect(text).toContain('research-train-fra');
    expect(text).not.toContain('dan-notebook');
    const stranger = command('U0STRANGER', 'recommend');
    await dispatch(deps, stranger);
    expect(stranger.reply.text()).toContain('not an owner or approver of any team');
  });

  it('burnrate recommend prints the evidence, and --json the recommendations', async () => {
    const text = await cli(['recommend', '--team', 'llm-training'], { now: T });
    expect(text.code).toBe(0);
    expect(text.out).toContain('dan-notebook (right-size):');
    expect(text.out).toMatch(/used at most [\d.]+ GiB of its 48 GiB GPU memory/);
    const json = await cli(['recommend', '--json'], { now: T });
    const parsed = JSON.parse(json.out) as { recommendations: { kind: string; monthlySaving: number }[] };
    expect(parsed.recommendations.length).toBeGreaterThan(3);
    expect(parsed.recommendations.every((r) => r.monthlySaving > 0)).toBe(true);
  });
});
