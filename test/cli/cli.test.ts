import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, workDir } from '../support/run-cli.js';

describe('burnrate CLI', () => {
  it('prints help and rejects an unknown command with exit code 2', async () => {
    expect((await cli(['--help'])).out).toContain('Usage: burnrate <command>');
    const unknown = await cli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown command "frobnicate"');
    expect(unknown.err).not.toContain('did you mean');
    // A typo gets the nearest command.
    expect((await cli(['spnd'])).err).toContain('unknown command "spnd" (did you mean "spend"?)');
    const version = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(await cli(['--version'])).toMatchObject({ code: 0, out: `burnrate ${version.version}\n` });
  });

  it('validates a config file and explains what is wrong with a bad one', async () => {
    const dir = workDir();
    writeFileSync(join(dir, 'good.yml'), 'teams:\n  - { id: a, budget: { monthly: 100 } }\n');
    writeFileSync(join(dir, 'bad.yml'), 'teams:\n  - { id: a, budget: { monthly: "5k" } }\n');
    writeFileSync(join(dir, 'broken.yml'), 'teams: [\n');
    expect(await cli(['config', 'validate', '--config', 'good.yml'], { cwd: dir })).toMatchObject({ code: 0 });
    const bad = await cli(['config', 'validate', '--config', 'bad.yml'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('teams[0].budget.monthly: expected a positive number, got "5k"');
    const broken = await cli(['config', 'validate', '--config', 'broken.yml'], { cwd: dir });
    expect(broken.code).toBe(2);
    expect(broken.err).toContain('not valid YAML');
    expect((await cli(['config', 'validate', '--config', 'nope.yml'], { cwd: dir })).err).toContain('config file not found');
  });

  it('prints a JSON Schema for burnrate.yml', async () => {
    const schema = JSON.parse((await cli(['config', 'schema'])).out);
    expect(schema.properties.teams.type).toBe('array');
  });

  it('loads the demo organisation, then answers spend and check in the documented JSON shapes', async () => {
    const dir = workDir();
    const demo = await cli(['demo'], { cwd: dir });
    expect(demo.code).toBe(0);
    expect(demo.out).toContain('Demo organisation loaded: 4 teams');
    expect(demo.out).toContain('LLM Training is on track to spend');
    expect(existsSync(join(dir, 'data', 'burnrate.db'))).toBe(true);

    const spend = await cli(['spend', '--json', '--period', '2026-10'], { cwd: dir });
    expect(spend.code).toBe(0);
    const report = JSON.parse(spend.out);
    expect(report).toMatchObject({ period: { start: '2026-10-01', end: '2026-11-01' }, currency: 'USD', by: 'team' });
    expect(report.rows.map((r: { key: string }) => r.key)).toEqual(
      expect.arrayContaining(['llm-training', 'ml-research', '(untagged)', '(unmapped)']),
    );
    expect(report.total.billed).toBeCloseTo(
      report.rows.reduce((s: number, r: { billed: number }) => s + r.billed, 0),
      6,
    );
    expect(report.dataThrough).toBe('2026-11-21T00:00:00.000Z');

    // The demo run already recorded its findings: a second check finds them open and says nothing new.
    const check = JSON.parse((await cli(['check', '--json'], { cwd: dir })).out);
    expect(check.findings.length).toBeGreaterThan(0);
    for (const f of check.findings) {
      expect(Object.keys(f)).toEqual(expect.arrayContaining(['id', 'kind', 'team', 'period', 'threshold', 'amount', 'budget', 'state']));
      expect(f.state).toBe('open');
    }
    expect(check.findings.map((f: { id: string }) => f.id)).toContain('budget.forecast:llm-training:2026-11:100');
  });

  it('spend --by day --chart writes the running total against the budget as a PNG', async () => {
    const dir = workDir();
    await cli(['demo'], { cwd: dir });
    const result = await cli(['spend', '--team', 'llm-training', '--by', 'day', '--chart', 'burn.png'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.out).toContain(`chart written to ${join(dir, 'burn.png')}`);
    expect(readFileSync(join(dir, 'burn.png')).subarray(1, 4).toString('ascii')).toBe('PNG');
    const wrong = await cli(['spend', '--by', 'team', '--chart', 'x.png'], { cwd: dir });
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain('--chart draws spend by day: add --by day');
    expect(existsSync(join(dir, 'x.png'))).toBe(false);
  });

  it('check --dry-run reports new findings and records nothing', async () => {
    const dir = workDir();
    await cli(['demo'], { cwd: dir, now: '2026-10-21T09:00:00Z' });
    const first = JSON.parse((await cli(['check', '--json', '--dry-run'], { cwd: dir })).out);
    const second = JSON.parse((await cli(['check', '--json', '--dry-run'], { cwd: dir })).out);
    expect(first.findings.some((f: { state: string }) => f.state === 'new')).toBe(true);
    expect(second).toEqual(first);
  });

  it.each([
    [['spend', '--period', 'yesterday-ish'], 'unknown period "yesterday-ish"'],
    [['spend', '--period', '2026-13'], 'unknown period "2026-13"'],
    [['spend', '--period', '2026-11-10..2026-11-01'], 'ends before it starts'],
    [['spend', '--by', 'colour'], '--by must be one of team, service, resource, day, provider'],
    [['spend', '--team', 'nobody'], 'unknown team "nobody"'],
    [['spend', '--frobnicate'], "Unknown option '--frobnicate'"],
    [['check', '--team', 'nobody'], 'Known teams: ml-research, llm-training, inference, vision'],
    [['import', 'focus'], 'no files given'],
    [['import', 'cur', 'x.csv'], 'unknown import format "cur"'],
    [['import', 'focus', 'missing.csv'], 'missing.csv'],
  ])('%j is a usage error with a clear message', async (args, message) => {
    const dir = workDir();
    const result = await cli(args, { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.err).toContain(message);
    expect(result.err).not.toMatch(/\n\s+at /); // no stack trace
  });
});
