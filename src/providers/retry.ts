/** How often and how patiently a call to a cloud API is tried again. */
export interface RetryPolicy {
  attempts: number;
  /** First wait; each next one doubles, with jitter, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 500, maxDelayMs: 8000 };

/**
 * Runs `call`, and again after a growing, jittered wait while `retryable` says the failure is
 * passing (throttling, a 5xx). The last error is thrown with `attempts` set, for the message.
 */
export async function withRetries<T>(
  call: () => Promise<T>,
  retryable: (error: unknown) => boolean,
  policy: RetryPolicy = DEFAULT_RETRY,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= policy.attempts || !retryable(error)) {
        if (error && typeof error === 'object') (error as { attempts?: number }).attempts = attempt;
        throw error;
      }
      const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
      await new Promise((resolve) => setTimeout(resolve, ceiling / 2 + Math.random() * (ceiling / 2)));
    }
  }
}
