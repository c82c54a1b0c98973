import { parse, type ParsedUrlQuery } from 'node:querystring';

/** Exactly what Bolt compares against: any other content type is parsed as JSON. */
const FORM = 'application/x-www-form-urlencoded';

export type BodyVerdict = { ok: true; body: Record<string, unknown> } | { ok: false; reason: string };

type Fields = Record<string, unknown>;

/** A request's form fields, parsed once: the SSL probe check and readSlackBody both read them, one after the other. */
const forms = new WeakMap<Buffer, ParsedUrlQuery>();
function formOf(raw: Buffer, text = raw.toString('utf8')): ParsedUrlQuery {
  let form = forms.get(raw);
  if (!form) forms.set(raw, (form = parse(text)));
  return form;
}

/**
 * Parses a signed Slack request body the way Bolt's HTTPReceiver will (form fields, a form field
 * `payload` holding JSON, or a JSON body) and checks the fields Bolt dereferences before any
 * listener runs. A signature proves who sent a body, not that it is well formed: `payload=null`
 * used to reach `body.ssl_check` inside an async closure of Bolt's with no catch, and the rejection
 * ended the process. Whatever passes here is an object of a kind Bolt routes, with those fields in
 * place; everything else is answered 400 with the reason, before Bolt sees it.
 */
export function readSlackBody(raw: Buffer, contentType: string | undefined): BodyVerdict {
  const text = raw.toString('utf8');
  if (text.trim() === '') return refuse('empty body');
  let parsed: unknown;
  if (contentType === FORM) {
    const fields = formOf(raw, text);
    if (Object.values(fields).some(Array.isArray)) return refuse('a form field is repeated');
    if (fields.payload === undefined) {
      parsed = { ...fields };
    } else {
      parsed = parseJson(String(fields.payload));
      if (parsed === undefined) return refuse('form field payload is not JSON');
    }
  } else {
    parsed = parseJson(text);
    if (parsed === undefined) return refuse('body is not JSON');
  }
  if (!isRecord(parsed)) return refuse('body is not a JSON object');
  const problem = shapeProblem(parsed);
  return problem ? refuse(problem) : { ok: true, body: parsed };
}

/** Slack's SSL probe (`ssl_check=1`, form-encoded): unsigned by design, answered 200 and never run. */
export function isSslCheck(raw: Buffer, contentType: string | undefined): boolean {
  return contentType === FORM && formOf(raw).ssl_check === '1';
}

/** What is wrong with a parsed body, in the order Bolt's getTypeAndConversation classifies it; null when nothing. */
function shapeProblem(body: Fields): string | null {
  if (body.type === 'url_verification') return typeof body.challenge === 'string' ? null : 'url_verification without a challenge';
  if (body.event !== undefined) return eventProblem(body.event);
  if (body.command !== undefined)
    return typeof body.command === 'string' && body.command.startsWith('/') ? null : 'command is not a slash command';
  const options = body.name !== undefined || body.type === 'block_suggestion';
  const action = !options && (body.actions !== undefined || body.type === 'dialog_submission');
  const view = body.type === 'view_submission' || body.type === 'view_closed';
  const shortcut = body.type === 'shortcut' || body.type === 'message_action';
  if (!options && !action && !view && !shortcut) return 'not a Slack request burnrate understands';
  // Bolt reads `team.id` unless team is null (org-wide installs), but `channel.id` whenever channel is there.
  if (!nullOrRecord(body.team) || !nullOrRecord(body.enterprise) || !absentOrRecord(body.channel))
    return 'team, enterprise or channel is not an object';
  if (!isRecord(body.user) || typeof body.user.id !== 'string') return 'interaction without a user id';
  if (action) return actionsProblem(body);
  if (view && !isRecord(body.view)) return `${String(body.type)} without a view`;
  return null;
}

function eventProblem(event: unknown): string | null {
  if (!isRecord(event) || typeof event.type !== 'string') return 'event without a type';
  const { user, channel, item, subteam } = event;
  if (user !== undefined && typeof user !== 'string' && !isRecord(user)) return 'event user is neither an id nor an object';
  if (channel !== undefined && typeof channel !== 'string' && !isRecord(channel)) return 'event channel is neither an id nor an object';
  if (!absentOrRecord(item) || !absentOrRecord(subteam)) return 'event item or subteam is not an object';
  return null;
}

function actionsProblem(body: Fields): string | null {
  if (body.type === 'dialog_submission') return null;
  const { actions } = body;
  if (!Array.isArray(actions) || actions.length === 0) return 'actions is not a list of actions';
  if (body.type === 'block_actions' && !actions.every((a) => isRecord(a) && typeof a.action_id === 'string'))
    return 'an action has no action_id';
  if (!actions.every(isRecord)) return 'an action is not an object';
  if (!nullOrRecord(body.container) || !nullOrRecord(body.message)) return 'container or message is not an object';
  return null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function absentOrRecord(value: unknown): boolean {
  return value === undefined || isRecord(value);
}

/** Absent, null (Slack sends `team: null` for org-wide installs) or an object. */
function nullOrRecord(value: unknown): boolean {
  return value === null || absentOrRecord(value);
}

function refuse(reason: string): BodyVerdict {
  return { ok: false, reason };
}
