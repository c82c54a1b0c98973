/** A moment as a team's wall clock shows it. */
export interface WallClock {
  /** Local calendar day, YYYY-MM-DD. */
  day: string;
  /** Local time, HH:MM (24-hour). */
  time: string;
  /** Minutes after local midnight. */
  minutes: number;
}

// Building a DateTimeFormat costs far more than using one (see BENCHMARKS.md, budget checks): one per zone.
const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock in `timeZone` at `at`; DST is Intl's business, so 02:30 on a fall-back night reads 02:30 twice. */
export function wallClock(at: Date, timeZone: string): WallClock {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formats.set(timeZone, format);
  }
  const part: Record<string, string> = {};
  for (const { type, value } of format.formatToParts(at)) part[type] = value;
  const time = `${part.hour}:${part.minute}`;
  return { day: `${part.year}-${part.month}-${part.day}`, time, minutes: Number(part.hour) * 60 + Number(part.minute) };
}
