const formats = new Map<string, Intl.NumberFormat>();

type Style = 'standard' | 'compact' | 'whole';

/**
 * Formats an amount with its currency for people. One format everywhere figures are read or added
 * up (text, tables, facts), in the currency's minor units: $12,345.67, €980.00, ¥30,000. `compact` is for charts and headlines only, where
 * the size matters more than the cents: $12.3K, $1.2M, and under a thousand whole units ($499),
 * so a chart never mixes $5.4K with $498.8.
 */
export function formatMoney(amount: number, currency: string, options: { compact?: boolean } = {}): string {
  if (!options.compact) return formatOf(currency, 'standard').format(amount);
  if (Math.abs(amount) < 999.5) return formatOf(currency, 'whole').format(amount);
  // 999.5 to 999.99 rounds to a thousand: "$1K", not "$999.6".
  return formatOf(currency, 'compact').format(Math.abs(amount) < 1000 ? Math.sign(amount) * 1000 : amount);
}

// Building a NumberFormat costs far more than using one: keep one per currency and style.
function formatOf(currency: string, style: Style): Intl.NumberFormat {
  const key = `${currency}:${style}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      notation: style === 'compact' ? 'compact' : 'standard',
      // Standard: the currency's own minor units (cents for USD and EUR, none for JPY).
      ...(style === 'standard' ? {} : { maximumFractionDigits: style === 'compact' ? 1 : 0, minimumFractionDigits: 0 }),
    });
    formats.set(key, format);
  }
  return format;
}

export function formatPercent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
}
