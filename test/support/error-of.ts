import { expect } from 'vitest';
import { BurnrateError } from '../../src/domain/errors.js';

/** The BurnrateError `run` throws; fails the test when it throws nothing or something else. */
export function errorOf(run: () => unknown): BurnrateError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(BurnrateError);
    return error as BurnrateError;
  }
  throw new Error('expected an error');
}
