import { BurnrateError } from '../src/domain/errors.js';
import type { CommandSpec } from './command.js';

/** A bad argument: what is wrong, then the verb's usage and an example. */
export function badArguments(spec: Pick<CommandSpec, 'usage' | 'example'>, problem: string): BurnrateError {
  return new BurnrateError('burnrate_usage', problem, `Usage: ${spec.usage} — for example ${spec.example}`);
}
