import type { KeepException } from '../domain/keep-exception.js';

export interface KeepExceptionStore {
  /** Sets (or moves) the instance's exception. */
  set(keep: KeepException): Promise<void>;
  active(now: Date): Promise<KeepException[]>;
}
