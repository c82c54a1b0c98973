import { z } from 'zod';
import type { Deps } from '../deps.js';
import type { TrackedFinding } from '../domain/finding.js';
import { BurnrateError } from '../errors.js';

const payloadSchema = z.strictObject({
  f: z.string().min(1).max(200),
  for: z.enum(['24h', '7d', 'period']).optional(),
});

export type FindingPayload = z.output<typeof payloadSchema>;

/** Validates a button value written by a budget alert and loads its finding; stale or forged values get a clear answer. */
export async function readFindingPayload(deps: Deps, value: string): Promise<{ payload: FindingPayload; finding: TrackedFinding }> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = undefined;
  }
  const result = payloadSchema.safeParse(parsed);
  if (!result.success) throw new BurnrateError('burnrate_payload_invalid', 'This button carries data burnrate cannot read.', 'Run `/burnrate budget` for a fresh view.');
  const finding = await deps.store.findings.get(result.data.f);
  if (!finding) throw new BurnrateError('burnrate_finding_unknown', 'This alert is no longer known to burnrate.', 'It may come from another installation or a reset database; run `/burnrate budget` for the current state.');
  return { payload: result.data, finding };
}
