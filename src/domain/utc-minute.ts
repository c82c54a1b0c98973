/** A moment as people read it in a message: "2026-11-20 09:12 UTC". */
export function utcMinute(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
