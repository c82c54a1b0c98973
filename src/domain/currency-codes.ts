/**
 * ISO 4217 alphabetic codes of currencies and funds (list one, as kept by Debian's iso-codes 4.15,
 * plus XCG and ZWG, introduced in 2024-2025). Codes withdrawn recently (HRK, SLL, ZWL, CUC) stay
 * in, because old billing exports still carry them. Precious metals (XAU, XAG, XPD, XPT), bond
 * market units (XBA-XBD), the testing code XTS and "no currency" XXX are left out: spend is never
 * priced in them, so seeing one means a typo or a wrong column.
 */
const CODES = `
  AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV
  BRL BSD BTN BWP BYN BZD CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE
  CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD
  HNL HRK HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD
  KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN
  MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD
  RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS
  TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VES VND VUV WST
  XAF XCD XCG XDR XOF XPF XSU XUA YER ZAR ZMW ZWG ZWL`;

const ISO_4217: ReadonlySet<string> = new Set(CODES.trim().split(/\s+/));

/** True for an upper-case ISO 4217 code such as `USD`; case matters, as in billing exports. */
export function isIso4217(code: unknown): code is string {
  return typeof code === 'string' && ISO_4217.has(code);
}

/** All accepted codes, sorted, e.g. for an error message or a JSON Schema enum. */
export function iso4217Codes(): readonly string[] {
  return [...ISO_4217];
}
