import { createHmac } from 'node:crypto';

/**
 * Requests as Slack sends them: form-encoded bodies shaped like the payloads recorded in
 * ../shared/data/slack/java-slack-sdk_json-logs, signed with the app's signing secret.
 */

export const TEST_SIGNING_SECRET = 'test-signing-secret-8f14e45fceea167a';

/** `v0=` + HMAC-SHA256 of `v0:{timestamp}:{body}`, exactly what Slack puts in x-slack-signature. */
export function slackSignature(body: string, secret: string, timestamp: number): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

export function signedHeaders(body: string, options: { secret?: string; timestamp?: number } = {}): Record<string, string> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  return {
    // Bolt compares the content type exactly, as Slack sends it: no charset.
    'content-type': 'application/x-www-form-urlencoded',
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': slackSignature(body, options.secret ?? TEST_SIGNING_SECRET, timestamp),
  };
}

/** A `/burnrate ...` slash command body (SlashCommandPayload). */
export function slashCommandBody(fields: { text: string; response_url: string; user_id?: string; user_name?: string; channel_id?: string }): string {
  return new URLSearchParams({
    token: 'legacy-verification-token',
    api_app_id: 'A0BURNRATE',
    team_id: 'T0DEMO',
    team_domain: 'demo',
    enterprise_id: '',
    enterprise_name: '',
    channel_id: fields.channel_id ?? 'C0DEMOLLMTR',
    channel_name: 'llm-training',
    user_id: fields.user_id ?? 'U0DEMOADMIN',
    user_name: fields.user_name ?? 'admin',
    command: '/burnrate',
    text: fields.text,
    response_url: fields.response_url,
    trigger_id: '1234567890.123456.abcdef',
    is_enterprise_install: 'false',
  }).toString();
}

/** A button click body (BlockActionPayload), sent as form field `payload` holding JSON. */
export function blockActionsBody(fields: {
  actionId: string;
  value?: string;
  response_url: string;
  channel?: string;
  messageTs?: string;
  ephemeral?: boolean;
  user_id?: string;
}): string {
  const channel = fields.channel ?? 'C0DEMOLLMTR';
  const ts = fields.messageTs ?? '1700000000.000001';
  const payload = {
    type: 'block_actions',
    team: { id: 'T0DEMO', domain: 'demo' },
    user: { id: fields.user_id ?? 'U0DEMOCAROL', username: 'carol', name: 'carol', team_id: 'T0DEMO' },
    api_app_id: 'A0BURNRATE',
    token: 'legacy-verification-token',
    container: { type: 'message', message_ts: ts, channel_id: channel, is_ephemeral: fields.ephemeral ?? false },
    trigger_id: '1234567890.123456.abcdef',
    channel: { id: channel, name: 'llm-training' },
    message: { type: 'message', user: 'U0BOT', ts, text: 'LLM Training is on track to spend 117% of its budget', blocks: [] },
    response_url: fields.response_url,
    actions: [
      {
        action_id: fields.actionId,
        block_id: 'actions-5',
        text: { type: 'plain_text', text: 'Acknowledge', emoji: true },
        ...(fields.value !== undefined ? { value: fields.value } : {}),
        type: 'button',
        action_ts: '1700000100.000200',
      },
    ],
    is_enterprise_install: false,
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/** POSTs a signed body; `tamper` changes the body after signing, `headers` override any header. */
export async function postSigned(url: string, body: string, options: { secret?: string; timestamp?: number; headers?: Record<string, string>; tamper?: (body: string) => string } = {}): Promise<Response> {
  const headers = { ...signedHeaders(body, options), ...options.headers };
  return fetch(url, { method: 'POST', headers, body: options.tamper ? options.tamper(body) : body });
}
