import { userInfo } from 'node:os';
import { tokenEnded, type McpTokenRecord } from '../domain/mcp-token.js';
import { BurnrateError } from '../domain/errors.js';
import { issueToken } from '../mcp/issue-token.js';
import { requireSomeRole } from '../mcp/mcp-caller.js';
import { runtimeOf } from './runtime-of.js';
import { COMMON_OPTIONS, parseVerbArgs, usageError } from './args.js';
import { HELP_PAGES } from './help-pages.js';
import type { CliIo, Verb } from './io.js';

const USAGE = HELP_PAGES.mcp.usage;
const DAY_MS = 86_400_000;
/** Ten years: a longer life is a token nobody will remember to revoke. */
const MAX_DAYS = 3650;
const DEFAULT_EXPIRY = '90d';

/**
 * `burnrate mcp token create|list|revoke`: tokens an assistant's MCP client authenticates with,
 * each acting as one chat user. The token is printed once, by create; the store keeps its SHA-256.
 * Creating and revoking are audited (platform `cli`, the operating-system user).
 */
export const mcpTokenVerb: Verb = async (args, io) => {
  const { values, positionals } = parseVerbArgs(
    args,
    { ...COMMON_OPTIONS, user: { type: 'string' }, name: { type: 'string' }, expires: { type: 'string' }, json: { type: 'boolean' } },
    USAGE,
    true,
  );
  const [action, id, ...rest] = positionals;
  if (rest.length > 0) throw usageError(`unexpected argument "${rest[0]}"`, USAGE);
  if (action !== 'create' && action !== 'list' && action !== 'revoke')
    throw usageError(
      action ? `unknown token action "${action}": create, list or revoke` : 'missing token action: create, list or revoke',
      USAGE,
    );
  if (action === 'revoke' && !id)
    throw usageError('revoke takes the token id `burnrate mcp token list` shows, e.g. mt_4f2a9c1b7d3e', USAGE);
  if (action !== 'revoke' && id) throw usageError(`unexpected argument "${id}"`, USAGE);
  const expiresIn = action === 'create' ? daysOf(values.expires ?? DEFAULT_EXPIRY) : null;
  const name = (values.name ?? '').trim();
  if (name.length > 80 || /[\p{Cc}<>`]/u.test(name)) throw usageError('--name is one line of plain text, at most 80 characters', USAGE);
  const runtime = await runtimeOf(values, io, { chatPlatforms: false });
  try {
    const { deps } = runtime;
    await deps.store.ready();
    const now = deps.clock();
    const audit = (subject: string, detail: string) =>
      deps.store.audit.record({
        at: now,
        platform: 'cli',
        userId: operatingSystemUser(),
        action: `mcp.token.${action}`,
        subject,
        result: 'ok',
        detail,
      });
    if (action === 'list') return listTokens(await deps.store.mcpTokens.list(), now, io, values.json === true);
    if (action === 'revoke') {
      const revoked = await deps.store.mcpTokens.revoke(id!, now);
      if (!revoked)
        throw new BurnrateError('burnrate_mcp_token_unknown', `no token "${id}"`, 'Give an id `burnrate mcp token list` shows.');
      await audit(revoked.id, `token of ${revoked.userId} revoked`);
      io.out.write(`revoked ${revoked.id} (${revoked.userId}, ${revoked.name}) from ${revoked.revokedAt!.toISOString()}\n`);
      return 0;
    }
    const user = (values.user ?? '').trim();
    if (!/^[A-Za-z0-9._@:-]{1,128}$/.test(user))
      throw usageError('--user is required: the chat user id the token acts as, e.g. U0CAROL', USAGE);
    requireSomeRole(deps, user);
    const expiresAt = expiresIn === null ? null : new Date(now.getTime() + expiresIn * DAY_MS);
    const { token, record } = await issueToken(deps.store, { userId: user, name: name || `token of ${user}`, expiresAt, now });
    await audit(record.id, `token for ${user} issued, ${expiresAt ? `expires ${expiresAt.toISOString()}` : 'never expires'}`);
    if (values.json) io.out.write(`${JSON.stringify({ token, ...asJson(record) }, null, 2)}\n`);
    else
      io.out.write(
        `${token}\n\nToken ${record.id} acts as ${user} (${record.name}), ${expiresAt ? `until ${expiresAt.toISOString()}` : 'without expiry'}.\n` +
          'It is shown this once: burnrate keeps only its hash. Revoke it with `burnrate mcp token revoke ' +
          `${record.id}\`.\n`,
      );
    return 0;
  } finally {
    await runtime.close();
  }
};

/** `90d`, `365d` or `never`. */
function daysOf(text: string): number | null {
  if (text === 'never') return null;
  const match = /^(\d{1,4})d$/.exec(text);
  const days = match ? Number(match[1]) : NaN;
  if (!(days >= 1 && days <= MAX_DAYS))
    throw usageError(`--expires is a number of days from 1 to ${MAX_DAYS} such as 90d, or never; got "${text}"`, USAGE);
  return days;
}

function asJson(t: McpTokenRecord) {
  return {
    id: t.id,
    userId: t.userId,
    name: t.name,
    createdAt: t.createdAt.toISOString(),
    expiresAt: t.expiresAt?.toISOString() ?? null,
    revokedAt: t.revokedAt?.toISOString() ?? null,
  };
}

function listTokens(tokens: McpTokenRecord[], now: Date, io: CliIo, json: boolean): number {
  const rows = tokens.map((t) => ({ ...asJson(t), state: tokenEnded(t, now) ?? 'valid' }));
  if (json) io.out.write(`${JSON.stringify(rows, null, 2)}\n`);
  else if (rows.length === 0) io.out.write('No tokens issued: burnrate mcp token create --user USER_ID makes one.\n');
  else
    for (const r of rows)
      io.out.write(`${r.id}  ${r.userId}  ${r.state.padEnd(7)}  created ${r.createdAt}  expires ${r.expiresAt ?? 'never'}  ${r.name}\n`);
  return 0;
}

/** Who runs the command, for the audit log: the operating-system account (a container without one: `cli`). */
function operatingSystemUser(): string {
  try {
    return userInfo().username || 'cli';
  } catch {
    return 'cli';
  }
}
