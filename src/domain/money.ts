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

/**
 * An amount at burnrate's precision: whole micro-units (1e-6 of the currency unit). Bills carry
 * exact decimals, but the store adds them as binary doubles, so a sum of 0.1 + 0.2 reads
 * 0.30000000000000004; rounded to micro-units it is again the nearest double to the exact decimal
 * sum, which prints as that decimal (2175.5259, not 2175.5258999999996). Exact for any amount
 * below 9 billion units; finer parts than a millionth are no money anyone is billed.
 */
export function roundMicros(amount: number): number {
  const micros = Math.round(amount * 1e6);
  return micros === 0 ? 0 : micros / 1e6;
}
