/** Formats an amount with its currency for people: $1,234.56, €980.00, $1.2M when compact. */
export function formatMoney(amount: number, currency: string, options: { compact?: boolean } = {}): string {
  const format = new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency,
    notation: options.compact ? 'compact' : 'standard',
    maximumFractionDigits: options.compact ? 1 : 2,
    minimumFractionDigits: options.compact ? 0 : 2,
  });
  return format.format(amount);
}

export function formatPercent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
}
