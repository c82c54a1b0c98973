import { runtimeOf } from './runtime-of.js';
import { COMMON_OPTIONS, parseVerbArgs, usageError } from './args.js';
import type { Verb } from './io.js';
import { HELP_PAGES } from './help-pages.js';

const USAGE = HELP_PAGES.outbox.usage;

/** `burnrate outbox retry`: queues failed alerts again once their cause is fixed. */
export const outboxVerb: Verb = async (args, io) => {
  const [action, ...rest] = args;
  if (action !== 'retry')
    throw usageError(action && !action.startsWith('-') ? `unknown outbox action "${action}"` : 'missing outbox action', USAGE);
  const { values } = parseVerbArgs(rest, { ...COMMON_OPTIONS, id: { type: 'string', multiple: true }, json: { type: 'boolean' } }, USAGE);
  const ids = values.id ? [...new Set(values.id.map(parseId))] : undefined;
  const runtime = await runtimeOf(values, io, { chatPlatforms: false });
  try {
    const outbox = runtime.deps.store.outbox;
    const failedIds = (await outbox.failed((await outbox.summary()).failed)).map((item) => item.id).sort((a, b) => a - b);
    // All or nothing: a mistyped id must not leave the others half re-queued.
    const unknown = (ids ?? []).filter((id) => !failedIds.includes(id));
    if (unknown.length > 0) {
      const listed = `${failedIds.slice(0, 20).join(', ')}${failedIds.length > 20 ? ', …' : ''}`;
      const known = failedIds.length === 0 ? 'There are no failed items.' : `Failed items: ${listed}.`;
      throw usageError(
        `${unknown.map((id) => `--id ${id}`).join(', ')}: not a failed outbox item; nothing was re-queued. ${known}`,
        `${USAGE} (burnrate status lists failed items)`,
      );
    }
    const requeued = await outbox.retryFailed(runtime.deps.clock(), ids);
    const which = ids ?? failedIds;
    if (values.json) {
      io.out.write(`${JSON.stringify({ requeued, ids: which }, null, 2)}\n`);
      return 0;
    }
    io.out.write(
      requeued === 0
        ? 'No failed outbox items to re-queue.\n'
        : `Re-queued ${requeued} failed outbox item${requeued === 1 ? '' : 's'}${which.length <= 20 ? ` (${which.map((id) => `#${id}`).join(', ')})` : ''} with a fresh retry budget.\nThe running burnrate serve delivers them within a minute; burnrate status shows how they fare.\n`,
    );
    return 0;
  } finally {
    await runtime.close();
  }
};

function parseId(text: string): number {
  if (!/^[1-9]\d{0,15}$/.test(text)) throw usageError(`--id must be an outbox item number such as 12, got "${text}"`, USAGE);
  return Number(text);
}
