import { Activity } from '@microsoft/agents-activity';

type Fields = Record<string, unknown>;

/** An activity burnrate will not run, with the short reason answered as 400. */
export class ActivityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ActivityError';
  }
}

/**
 * The posted body as an activity, checked before authentication and before the SDK sees it. A
 * token proves who sent an activity, not that it is well formed; our turn logic dereferences these
 * fields (`conversation.id`, `serviceUrl`, each of `membersAdded`), so a body without them is
 * answered 400 with the reason instead of failing deep inside a turn as a 500. Last, the SDK's own
 * activity schema reads it, as its CloudAdapter will: what it refuses is a 400 here too.
 */
export function readActivity(text: string): Fields {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ActivityError('request body is not JSON');
  }
  if (!isRecord(parsed)) throw new ActivityError('request body is not a JSON object (an activity)');
  const activity = parsed;
  if (typeof activity.type !== 'string' || activity.type === '') throw new ActivityError('activity has no type');
  if (!isRecord(activity.conversation) || !nonEmpty(activity.conversation.id)) throw new ActivityError('activity has no conversation id');
  if (!isRecord(activity.from) || typeof activity.from.id !== 'string') throw new ActivityError('activity has no sender (from.id)');
  if (!isServiceUrl(activity.serviceUrl)) throw new ActivityError('activity has no http(s) serviceUrl');
  for (const key of ['id', 'name', 'text', 'replyToId', 'action', 'channelId', 'locale']) {
    if (activity[key] !== undefined && typeof activity[key] !== 'string') throw new ActivityError(`activity ${key} is not a string`);
  }
  for (const key of ['recipient', 'channelData']) {
    if (activity[key] !== undefined && !isRecord(activity[key])) throw new ActivityError(`activity ${key} is not an object`);
  }
  for (const key of ['entities', 'attachments']) {
    if (activity[key] !== undefined && !listOf(activity[key], isRecord))
      throw new ActivityError(`activity ${key} is not a list of objects`);
  }
  for (const key of ['membersAdded', 'membersRemoved']) {
    if (activity[key] !== undefined && !listOf(activity[key], (m) => isRecord(m) && typeof m.id === 'string'))
      throw new ActivityError(`activity ${key} is not a list of members`);
  }
  for (const key of ['timestamp', 'localTimestamp', 'expiration']) {
    if (activity[key] === undefined) continue;
    const time = typeof activity[key] === 'string' ? new Date(activity[key]) : null;
    if (!time || Number.isNaN(time.getTime())) throw new ActivityError(`activity ${key} is not a time`);
  }
  try {
    Activity.fromObject(structuredClone(activity));
  } catch (error) {
    // A zod error: its first issue's path names the field; its wording stays out (it can be long).
    const path = (error as { issues?: { path?: unknown[] }[] }).issues?.[0]?.path?.join('.');
    throw new ActivityError(path ? `activity ${path.slice(0, 40)} is not valid` : 'activity is not valid');
  }
  return activity;
}

function isServiceUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmpty(value: unknown): boolean {
  return typeof value === 'string' && value !== '';
}

function listOf(value: unknown, check: (item: unknown) => boolean): boolean {
  return Array.isArray(value) && value.every(check);
}
