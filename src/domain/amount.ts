/** 50000, 50,000, 50k, $1.5m: how people write budgets. Null when it is not a positive amount. */
export function parseAmount(text: string): number | null {
  const match = /^\$?(\d+(?:[.,]\d+)*)([km])?$/i.exec(text.trim());
  if (!match) return null;
  const digits = match[1]!.replace(/,(?=\d{3}(\D|$))/g, '');
  const scale = { k: 1e3, m: 1e6 }[match[2]?.toLowerCase() as 'k' | 'm'] ?? 1;
  const value = Number(digits) * scale;
  return Number.isFinite(value) && value > 0 ? value : null;
}
