const formats = new Map<string, Intl.NumberFormat>();

/** Formats an amount with its currency for people: $1,234.56, €980.00, $1.2M when compact. */
export function formatMoney(amount: number, currency: string, options: { compact?: boolean } = {}): string {
  // Building a NumberFormat costs far more than using one: keep one per currency and style.
  const key = `${currency}:${options.compact ? 'compact' : 'standard'}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      notation: options.compact ? 'compact' : 'standard',
      maximumFractionDigits: options.compact ? 1 : 2,
      minimumFractionDigits: options.compact ? 0 : 2,
    });
    formats.set(key, format);
  }
  return format.format(amount);
}

export function formatPercent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
}
