// Delivery soak: a month of alerts for many teams delivered by the real outbox (SQLite store,
// deliverOutbox) through a simulated chat platform that misbehaves every few hours: outages (503s
// and refused connections), throttles with Retry-After, lost answers, slow answers, and processes
// that crash mid-post. Two delivery processes share the store, as two replicas on one database
// would; a crashed one comes back minutes later. Simulated time, so a month takes seconds.
//
// It counts on the platform's side what went out twice, and checks the outbox's promises: nothing
// due is lost, and every double is one the outbox counted as a suspected duplicate (none at all
// where the platform lets the outbox look before posting again).
//
// Optionally (`clockSkewMs`, `stallMeanGapMs`) the second process reads a clock that runs ahead of the
// database's, and processes stall between claim and post for longer than their lease: leases are
// judged on the database's clock and checked right before each post, so neither may double a post
// uncounted.
import { configSchema } from '../src/config/schema.js';
import { deliveryTimings } from '../src/config/delivery-schema.js';
import { createRandom, seedOf } from '../src/providers/demo/random.js';
import { openStore } from '../src/store/sqlite/open-sqlite-store.js';
import { planAlerts } from './soak-alerts.js';
import { SoakChatPort, SoakPlatform } from './soak-chat.js';
import { SimClock } from './soak-clock.js';
import { FaultPlayer, planFaults, type FaultKind } from './soak-faults.js';
import { SoakDeliveryProcess, type ProcessCounters } from './soak-process.js';
import { planStalls, stallingOutbox, StallPlayer, type StallPoint } from './soak-stalls.js';

export interface SoakOptions {
  days: number;
  teams: number;
  seed: number;
  /** Slack-like (the port can look for a post in doubt) or Teams-like (it cannot). */
  findPosted: boolean;
  /** Delivery processes sharing the store. */
  processes?: number;
  /** Mean time between two faults. */
  meanFaultGapMs?: number;
  /**
   * The slowest answer in a slow spell (90 s by default: beyond Slack's client timeout of 15 s, within
   * the outbox's 2-minute lease). Beyond the lease, another delivery takes the item over mid-call.
   */
  slowAnswerMaxMs?: number;
  /** How far ahead of the database's clock the second process's clock runs (0 by default). */
  clockSkewMs?: number;
  /** Mean time between two stalls longer than the lease (none by default). */
  stallMeanGapMs?: number;
}

export interface SoakResult {
  findPosted: boolean;
  /** Items queued (posts and thread replies). */
  due: number;
  /** Distinct keys the platform took. */
  posted: number;
  /** Keys the platform took more than once, and the extra copies. */
  doubled: number;
  extraCopies: number;
  /** Keys due and never taken by the platform, after the month and a drain. */
  lost: number;
  /** Items the outbox gave up on. */
  failed: number;
  /** Items the outbox marked as posted again after an attempt in doubt. */
  suspectedDuplicates: number;
  /** Queued -> first taken by the platform, ms. */
  delay: { p50: number; p99: number; max: number };
  faults: Record<FaultKind, number>;
  /** Calls each kind of fault changed. */
  hits: Record<FaultKind, number>;
  crashes: number;
  /** The second process's clock, ahead of the database's by this much. */
  clockSkewMs: number;
  /** Stalls longer than the lease that held a process, by where. */
  stalls: Record<StallPoint, number>;
  counters: ProcessCounters;
  /** Simulated time the drain after the month took, ms. */
  drainMs: number;
  events: number;
  wallMs: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const START = Date.parse('2026-11-01T00:00:00Z');
/** Checks queue what arose since the last one, every 15 minutes. */
const CHECK_EVERY_MS = 15 * MINUTE;
/** The longest the drain after the month may take before what is left counts as lost. */
const DRAIN_LIMIT_MS = 48 * HOUR;

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const started = performance.now();
  const end = START + options.days * 24 * HOUR;
  const sim = new SimClock(new Date(START));
  // Leases run on the database's clock: here the simulated one, which every process of the soak shares.
  const store = openStore(':memory:', { databaseClock: sim.clock });
  const alerts = planAlerts(createRandom(seedOf(options.seed, 'alerts')), {
    teams: options.teams,
    start: START,
    end,
    meanGapMs: 6 * HOUR,
    replyShare: 0.4,
  });
  const faultPlan = planFaults(createRandom(seedOf(options.seed, 'faults')), {
    start: START,
    end,
    meanGapMs: options.meanFaultGapMs ?? 3 * HOUR,
  });
  const faults = new FaultPlayer(faultPlan, createRandom(seedOf(options.seed, 'calls')), {
    slowAnswerMaxMs: options.slowAnswerMaxMs ?? 90_000,
  });
  const platform = new SoakPlatform(sim);
  const downtime = createRandom(seedOf(options.seed, 'restarts'));
  const stalls = new StallPlayer(
    options.stallMeanGapMs
      ? planStalls(createRandom(seedOf(options.seed, 'stalls')), {
          start: START,
          end,
          meanGapMs: options.stallMeanGapMs,
          leaseMs: deliveryTimings(configSchema.parse({}).delivery).leaseMs,
        })
      : [],
  );
  const outbox = stallingOutbox(store.outbox, sim, stalls);
  const clockSkewMs = options.clockSkewMs ?? 0;
  const counters: ProcessCounters = { passes: 0, idleShortWakes: 0 };
  const queuedAt = new Map<string, number>();
  let crashes = 0;

  // 1. Delivery processes; a crashed one is replaced after 1-10 minutes.
  const processes: SoakDeliveryProcess[] = [];
  const launch = (slot: number) => {
    const delivery = new SoakDeliveryProcess(
      sim,
      outbox,
      (p) => new SoakChatPort(sim, platform, faults, () => crashed(slot, p), options.findPosted),
      {},
      counters,
      slot === 1 ? clockSkewMs : 0,
    );
    processes[slot] = delivery;
    delivery.start();
  };
  const crashed = (slot: number, delivery: SoakDeliveryProcess) => {
    crashes += 1;
    delivery.crash();
    sim.schedule(downtime.int(1, 10) * MINUTE, () => launch(slot));
  };
  for (let slot = 0; slot < (options.processes ?? 2); slot++) launch(slot);

  // 2. Checks every 15 minutes queue the alerts that arose, then wake the delivery.
  let nextAlert = 0;
  const check = () => {
    const drafts = [];
    while (nextAlert < alerts.length && alerts[nextAlert]!.at <= sim.now) drafts.push(alerts[nextAlert++]!.draft);
    if (drafts.length > 0) {
      for (const d of drafts) queuedAt.set(d.dedupeKey, sim.now);
      void store.outbox.enqueue(drafts, sim.clock()).then(() => processes.forEach((p) => p.wake()));
    }
    if (sim.now + CHECK_EVERY_MS < end) sim.schedule(CHECK_EVERY_MS, check);
  };
  sim.schedule(CHECK_EVERY_MS, check);
  await sim.run(end);

  // 3. Drain: no new alerts (faults already under way play out); run until the outbox is empty.
  let drained = false;
  const watch = () => {
    void store.outbox.summary().then((s) => {
      drained = s.pending + s.sending === 0;
      if (!drained) sim.schedule(MINUTE, watch);
    });
  };
  watch();
  await new Promise<void>((resolve) => setImmediate(resolve));
  await sim.run(end + DRAIN_LIMIT_MS, () => drained);
  const drainMs = sim.now - end;

  // 4. Count on the platform's side.
  const summary = await store.outbox.summary();
  const delays: number[] = [];
  let doubled = 0;
  let extraCopies = 0;
  let lost = 0;
  for (const [key, at] of queuedAt) {
    const copies = platform.byKey.get(key);
    if (!copies) {
      lost += 1;
      continue;
    }
    if (copies.length > 1) doubled += 1;
    extraCopies += copies.length - 1;
    delays.push(copies[0]!.at - at);
  }
  delays.sort((a, b) => a - b);
  const faultCounts = { outage: 0, throttle: 0, lost: 0, slow: 0, crash: 0 };
  for (const f of faultPlan) faultCounts[f.kind] += 1;
  await store.close();
  return {
    findPosted: options.findPosted,
    due: queuedAt.size,
    posted: [...queuedAt.keys()].filter((k) => platform.byKey.has(k)).length,
    doubled,
    extraCopies,
    lost,
    failed: summary.failed,
    suspectedDuplicates: summary.suspectedDuplicates,
    delay: { p50: percentile(delays, 0.5), p99: percentile(delays, 0.99), max: delays.at(-1) ?? 0 },
    faults: faultCounts,
    hits: faults.hits,
    crashes,
    clockSkewMs,
    stalls: stalls.hits,
    counters,
    drainMs,
    events: sim.events,
    wallMs: performance.now() - started,
  };
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

/** What the soak promises; an empty list means it held. */
export function soakFailures(r: SoakResult): string[] {
  const failures: string[] = [];
  const mode = r.findPosted ? 'with findPosted' : 'without findPosted';
  if (r.lost > 0) failures.push(`${mode}: ${r.lost} alert(s) due were never posted`);
  if (r.doubled > r.suspectedDuplicates)
    failures.push(`${mode}: ${r.doubled} alert(s) posted twice, only ${r.suspectedDuplicates} counted as suspected duplicates`);
  return failures;
}
