import type { Activity, DayInterval, DemoInstance, RunPattern } from './demo-instance.js';
import { randomFor, type Random } from './random.js';

/**
 * When each demo instance runs, day by day: the intervals behind its spend (hours x price) and,
 * later, behind its GPU utilisation, derived from its run pattern and a seeded stream per day.
 */

const DAY_MS = 86_400_000;
/** Days since 1970-01-01 of a YYYY-MM-DD day. */
export function dayNumber(day: string): number {
  return Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
}

interface Span {
  start: number; // absolute hours since 1970-01-01T00:00Z
  end: number;
  activity: Activity;
}

/** The stretches of UTC day `day` (YYYY-MM-DD) the instance ran, in order, non-overlapping. */
export function dayIntervals(instance: DemoInstance, day: string): DayInterval[] {
  const n = dayNumber(day);
  const from = n * 24;
  const to = from + 24;
  const spans = spansAround(instance, n)
    .map((s) => ({ start: Math.max(s.start, from), end: Math.min(s.end, to), activity: s.activity }))
    .filter((s) => s.end > s.start)
    .sort((a, b) => a.start - b.start);
  const out: DayInterval[] = [];
  for (const s of spans) {
    const start = Math.max(s.start - from, out.at(-1)?.end ?? 0);
    const end = s.end - from;
    if (end <= start) continue;
    const last = out.at(-1);
    if (last && last.end === start && last.activity === s.activity) last.end = round4(end);
    else out.push({ start: round4(start), end: round4(end), activity: s.activity });
  }
  return out;
}

/** Hours the instance ran on a UTC day: what the day's compute line bills. */
export function hoursOn(instance: DemoInstance, day: string): number {
  return round4(dayIntervals(instance, day).reduce((h, i) => h + (i.end - i.start), 0));
}

function spansAround(instance: DemoInstance, n: number): Span[] {
  const p = instance.pattern;
  const rnd = (...parts: (string | number)[]) => randomFor(instance.scheduleSeed, ...parts);
  switch (p.kind) {
    case 'always':
      return [{ start: n * 24, end: n * 24 + 24, activity: p.activity }];
    case 'business-hours':
      return [n - 1, n]
        .filter(isWeekday)
        .map((d) => ({ start: d * 24 + p.startHourUtc, end: d * 24 + p.startHourUtc + p.hours, activity: 'serving' as const }));
    case 'runs': {
      const k = Math.floor((n + p.phaseDays) / p.cycleDays);
      const start = (k * p.cycleDays - p.phaseDays) * 24;
      const end = start + p.cycleDays * 24;
      const r = rnd('cycle', k);
      if (r.chance(p.skipChance)) return [];
      const gap = r.between(p.gapHours[0], p.gapHours[1]);
      const tail = r.chance(p.idleTailChance) ? r.between(p.idleTailHours[0], p.idleTailHours[1]) : 0;
      return [
        { start: start + gap, end: end - tail, activity: 'training' },
        { start: end - tail, end, activity: 'idle' },
      ];
    }
    case 'bursts': {
      const k = Math.floor((n + p.phaseDays) / p.cycleDays);
      const start = (k * p.cycleDays - p.phaseDays) * 24;
      const r = rnd('burst', k);
      if (!r.chance(p.burstChance)) return [];
      const hours = r.between(p.burstHours[0], p.burstHours[1]);
      const offset = r.between(0, p.cycleDays * 24 - hours);
      return [{ start: start + offset, end: start + offset + hours, activity: 'training' }];
    }
    case 'workdays': {
      // Sessions start on weekdays; one left on runs idle until the next session (Friday's: until Monday).
      const spans: Span[] = [];
      for (let d = n - 3; d <= n; d++) {
        if (!isWeekday(d)) continue;
        const session = sessionOf(p, rnd, d);
        spans.push({ start: session.start, end: session.end, activity: 'interactive' });
        const friday = weekday(d) === 5;
        const left = rnd('left-on', d).next() < (friday ? p.weekendChance : p.overnightChance);
        if (left) spans.push({ start: session.end, end: sessionOf(p, rnd, nextWeekday(d)).start, activity: 'idle' });
      }
      return spans;
    }
  }
}

function sessionOf(
  p: Extract<RunPattern, { kind: 'workdays' }>,
  rnd: (...parts: (string | number)[]) => Random,
  d: number,
): { start: number; end: number } {
  const r = rnd('session', d);
  const start = d * 24 + p.startHourUtc + r.between(-0.75, 0.75);
  return { start, end: start + r.between(p.sessionHours[0], p.sessionHours[1]) };
}

/** 0 = Sunday ... 6 = Saturday, of day number n (1970-01-01 was a Thursday). */
function weekday(n: number): number {
  return (((n + 4) % 7) + 7) % 7;
}
function isWeekday(n: number): boolean {
  const w = weekday(n);
  return w >= 1 && w <= 5;
}
function nextWeekday(n: number): number {
  let d = n + 1;
  while (!isWeekday(d)) d++;
  return d;
}

export function round4(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}
