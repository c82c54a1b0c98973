// `BENCH_ONLY=soak npm run bench`: the delivery soak (bench/delivery-soak.ts), Slack-like and
// Teams-like, one seed per run; then the same with the second process's clock ahead of the
// database's and stalls longer than the lease between claim and post. Figures are medians of the
// runs, and every run must keep the promises.
import { runSoak, soakFailures, type SoakResult } from './delivery-soak.js';
import { median } from './stats.js';

export interface SoakBenchOptions {
  days: number;
  teams: number;
  runs: number;
  /** The first run's seed; run i uses seed + i. */
  seed: number;
  slowAnswerMaxMs?: number;
  /** The skewed scenario: the second process's clock ahead by this much, and stalls this often on average. */
  clockSkewMs: number;
  stallMeanGapMs: number;
}

export interface SoakBench {
  days: number;
  teams: number;
  runs: number;
  seeds: number[];
  /** Per mode, every run's result. */
  slackLike: SoakResult[];
  teamsLike: SoakResult[];
  /** The same with clock skew and stalls longer than the lease. */
  slackLikeSkewed: SoakResult[];
  teamsLikeSkewed: SoakResult[];
  failures: string[];
}

export async function benchDeliverySoak(options: SoakBenchOptions): Promise<SoakBench> {
  const seeds = Array.from({ length: options.runs }, (_, i) => options.seed + i);
  const slackLike: SoakResult[] = [];
  const teamsLike: SoakResult[] = [];
  const slackLikeSkewed: SoakResult[] = [];
  const teamsLikeSkewed: SoakResult[] = [];
  const failures: string[] = [];
  const skewed = { clockSkewMs: options.clockSkewMs, stallMeanGapMs: options.stallMeanGapMs };
  for (const seed of seeds) {
    for (const [findPosted, results, extra] of [
      [true, slackLike, {}],
      [false, teamsLike, {}],
      [true, slackLikeSkewed, skewed],
      [false, teamsLikeSkewed, skewed],
    ] as const) {
      const result = await runSoak({
        days: options.days,
        teams: options.teams,
        seed,
        findPosted,
        slowAnswerMaxMs: options.slowAnswerMaxMs,
        ...extra,
      });
      results.push(result);
      const scenario = 'clockSkewMs' in extra ? ', skewed and stalled' : '';
      failures.push(...soakFailures(result).map((f) => `seed ${seed}${scenario}, ${f}`));
    }
  }
  return {
    days: options.days,
    teams: options.teams,
    runs: options.runs,
    seeds,
    slackLike,
    teamsLike,
    slackLikeSkewed,
    teamsLikeSkewed,
    failures,
  };
}

export function printDeliverySoak(b: SoakBench): void {
  const first = b.slackLike[0];
  const med = (rs: SoakResult[], f: (r: SoakResult) => number) => median(rs.map(f));
  const min = (ms: number) => (ms < 120_000 ? `${(ms / 1000).toFixed(0)} s` : `${(ms / 60_000).toFixed(1)} min`);
  console.log(
    `\nDelivery under faults (soak): ${b.days} simulated days, ${b.teams} teams, 2 delivery processes on one store, seeds ${b.seeds.join(', ')}; median of ${b.runs}:`,
  );
  if (first) {
    const f = first.faults;
    console.log(
      `  faults (seed ${b.seeds[0]}): ${f.outage} outages, ${f.throttle} throttles, ${f.lost} lost-answer spells, ${f.slow} slow spells, ${f.crash} crashes`,
    );
  }
  console.log(
    `                          due   posted  doubled  extra  suspected  lost  failed  delay p50  delay p99  delay max  crashes  short idle wakes  wall`,
  );
  const skew = b.slackLikeSkewed[0];
  const skewLabel = skew ? `+${skew.clockSkewMs / 1000} s, stalls` : 'skewed';
  for (const [name, rs] of [
    ['with findPosted', b.slackLike],
    ['without findPosted', b.teamsLike],
    [`with, ${skewLabel}`, b.slackLikeSkewed],
    [`without, ${skewLabel}`, b.teamsLikeSkewed],
  ] as const) {
    if (rs.length === 0) continue;
    const cells = [
      String(med(rs, (r) => r.due)).padStart(7),
      String(med(rs, (r) => r.posted)).padStart(8),
      String(med(rs, (r) => r.doubled)).padStart(8),
      String(med(rs, (r) => r.extraCopies)).padStart(6),
      String(med(rs, (r) => r.suspectedDuplicates)).padStart(10),
      String(med(rs, (r) => r.lost)).padStart(5),
      String(med(rs, (r) => r.failed)).padStart(7),
      min(med(rs, (r) => r.delay.p50)).padStart(10),
      min(med(rs, (r) => r.delay.p99)).padStart(10),
      min(med(rs, (r) => r.delay.max)).padStart(10),
      String(med(rs, (r) => r.crashes)).padStart(8),
      String(med(rs, (r) => r.counters.idleShortWakes)).padStart(17),
      `${(med(rs, (r) => r.wallMs) / 1000).toFixed(1)} s`.padStart(7),
    ];
    console.log(`  ${name.padEnd(20)}${cells.join(' ')}`);
    const stalls =
      rs[0]!.clockSkewMs > 0
        ? `, stalls after claim / after lease check ${rs.map((r) => `${r.stalls['after-claim']}+${r.stalls['after-lease-check']}`).join('/')}`
        : '';
    console.log(
      `    per run: doubled ${rs.map((r) => r.doubled).join('/')}, suspected ${rs.map((r) => r.suspectedDuplicates).join('/')}, lost ${rs.map((r) => r.lost).join('/')}${stalls}`,
    );
  }
  console.log(
    `  promises: lost = 0, and doubled (keys posted more than once, counted by the platform) ≤ suspected duplicates (counted by the outbox)`,
  );
  if (b.failures.length === 0) console.log('  PASS');
  for (const failure of b.failures) console.log(`  FAIL ${failure}`);
}
