/**
 * The longest one chat API call may take before burnrate gives up on it. A delivery's lease must
 * outlast it (config/delivery-schema.ts), so a slow post is never taken over while it still runs.
 */
export const CHAT_CALL_TIMEOUT_MS = 15_000;
