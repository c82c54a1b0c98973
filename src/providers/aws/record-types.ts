// Cost Explorer's RECORD_TYPE values as FOCUS charge categories and frequencies, following the
// FOCUS converter's mapping of AWS line item types. Usage-like record types are asked for grouped
// by service; the rest (taxes, fees, credits, refunds) grouped by their record type.

/** Record types that accrue with usage: read grouped by service. Savings Plan negation offsets covered usage day by day. */
export const USAGE_RECORD_TYPES = ['Usage', 'DiscountedUsage', 'SavingsPlanCoveredUsage', 'SavingsPlanNegation'] as const;

interface Charge {
  chargeCategory: string;
  chargeFrequency: string;
  /** What spend by service shows for it. */
  label: string;
}

const CHARGES: Record<string, Charge> = {
  Tax: { chargeCategory: 'Tax', chargeFrequency: 'Recurring', label: 'AWS tax' },
  Support: { chargeCategory: 'Purchase', chargeFrequency: 'Recurring', label: 'AWS Support' },
  Fee: { chargeCategory: 'Purchase', chargeFrequency: 'Recurring', label: 'AWS fees' },
  RIFee: { chargeCategory: 'Purchase', chargeFrequency: 'Recurring', label: 'Reserved Instance fees' },
  SavingsPlanRecurringFee: { chargeCategory: 'Purchase', chargeFrequency: 'Recurring', label: 'Savings Plans recurring fees' },
  SavingsPlanUpfrontFee: { chargeCategory: 'Purchase', chargeFrequency: 'One-Time', label: 'Savings Plans upfront fees' },
  Credit: { chargeCategory: 'Credit', chargeFrequency: 'One-Time', label: 'AWS credits' },
  Refund: { chargeCategory: 'Credit', chargeFrequency: 'One-Time', label: 'AWS refunds' },
  BundledDiscount: { chargeCategory: 'Credit', chargeFrequency: 'Usage-Based', label: 'AWS bundled discounts' },
  EdpDiscount: { chargeCategory: 'Credit', chargeFrequency: 'Usage-Based', label: 'AWS EDP discount' },
  PrivateRateDiscount: { chargeCategory: 'Credit', chargeFrequency: 'Usage-Based', label: 'AWS private rate discount' },
  Discount: { chargeCategory: 'Credit', chargeFrequency: 'Usage-Based', label: 'AWS discounts' },
};

/** The FOCUS category and frequency of a record type; one not listed is an adjustment, billed once. */
export function chargeOfRecordType(recordType: string): Charge {
  if ((USAGE_RECORD_TYPES as readonly string[]).includes(recordType))
    return { chargeCategory: 'Usage', chargeFrequency: 'Usage-Based', label: recordType };
  return CHARGES[recordType] ?? { chargeCategory: 'Adjustment', chargeFrequency: 'One-Time', label: `AWS ${recordType}` };
}
