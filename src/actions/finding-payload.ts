import { z } from 'zod';
import { parseButtonValue, unknownFinding } from './button-value.js';
import { CHECKS } from '../checks/index.js';
import type { FindingHandle } from '../checks/definition.js';
import type { Deps } from '../deps.js';

const payloadSchema = z.strictObject({
  f: z.string().min(1).max(200),
  for: z.enum(['24h', '7d', 'period']).optional(),
});

export type FindingPayload = z.output<typeof payloadSchema>;

/**
 * The finding of that id, whichever registered check found it (each says how to read its own);
 * null when none has it.
 */
export async function findingById(deps: Deps, id: string): Promise<FindingHandle | null> {
  for (const check of CHECKS) {
    const found = await check.findings?.get(deps, id);
    if (found) return found;
  }
  return null;
}

/** Validates a finding button's value and loads its finding, of any kind; stale or forged values get a clear answer. */
export async function readFindingPayload(deps: Deps, value: string): Promise<{ payload: FindingPayload; finding: FindingHandle }> {
  const payload = parseButtonValue(payloadSchema, value, '/burnrate budget');
  const finding = await findingById(deps, payload.f);
  if (!finding) throw unknownFinding('/burnrate budget');
  return { payload, finding };
}

/**
 * The alert as it stands now on `platform` from the check that found it, or null where that check
 * draws none (the clicker is then answered privately).
 */
export async function findingAlertNow(deps: Deps, finding: FindingHandle, platform: string) {
  const face = CHECKS.find((c) => c.findingKind === finding.kind)?.findings;
  return face?.alertNow ? face.alertNow(deps, finding, platform) : null;
}
