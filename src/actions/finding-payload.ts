import { z } from 'zod';
import { parseButtonValue, unknownFinding } from './button-value.js';
import type { Deps } from '../deps.js';
import type { TrackedFinding } from '../domain/finding.js';

const payloadSchema = z.strictObject({
  f: z.string().min(1).max(200),
  for: z.enum(['24h', '7d', 'period']).optional(),
});

export type FindingPayload = z.output<typeof payloadSchema>;

/** Validates a button value written by a budget alert and loads its finding; stale or forged values get a clear answer. */
export async function readFindingPayload(deps: Deps, value: string): Promise<{ payload: FindingPayload; finding: TrackedFinding }> {
  const payload = parseButtonValue(payloadSchema, value, '/burnrate budget');
  const finding = await deps.store.findings.get(payload.f);
  if (!finding) throw unknownFinding('/burnrate budget');
  return { payload, finding };
}
