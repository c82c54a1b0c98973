import { utcMinute } from './utc-minute.js';
import { wallClock } from './wall-clock.js';

// Building a DateTimeFormat costs far more than using one: one per zone and locale.
const labels = new Map<string, Intl.DateTimeFormat>();

/**
 * A moment on a team's wall clock, labelled with the zone, for surfaces that cannot show each
 * reader's own time (Teams cards, the console, the terminal): "2026-11-20 10:12 CET".
 */
export function zonedMinute(date: Date, timeZone: string | undefined): string {
  if (!timeZone || timeZone === 'UTC' || timeZone === 'Etc/UTC') return utcMinute(date);
  const clock = wallClock(date, timeZone);
  return `${clock.day} ${clock.time} ${zoneLabel(date, timeZone)}`;
}

/**
 * The zone's common abbreviation where one exists (en-GB knows Europe's, en-US America's), else
 * its offset ("GMT+9"): a reader always knows which clock it is, in summer and in winter.
 */
function zoneLabel(date: Date, timeZone: string): string {
  const british = zoneName(date, timeZone, 'en-GB');
  if (!/^GMT[+-]/.test(british)) return british;
  const american = zoneName(date, timeZone, 'en-US');
  return /^[A-Z]{2,5}$/.test(american) ? american : british;
}

function zoneName(date: Date, timeZone: string, locale: string): string {
  const key = `${locale}|${timeZone}`;
  let format = labels.get(key);
  if (!format) labels.set(key, (format = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' })));
  return format.formatToParts(date).find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
}
