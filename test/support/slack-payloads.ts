/**
 * Payloads as Slack sends them, shaped like those recorded in
 * slackapi/java-slack-sdk (json-logs/samples). Over HTTP they arrive form-encoded and signed
 * (slack-request.ts); in Socket Mode the same objects arrive inside an envelope.
 */

/**
 * Slack gives every invocation and click its own trigger_id; burnrate runs a repeated one only
 * once, so each payload built here gets a new one, as from Slack.
 */
let triggers = 0;
function triggerId(): string {
  triggers += 1;
  return `1234567890.${String(triggers).padStart(6, '0')}.abcdef`;
}

/** A `/burnrate ...` slash command (SlashCommandPayload). */
export function slashCommandPayload(fields: {
  text: string;
  response_url: string;
  user_id?: string;
  user_name?: string;
  channel_id?: string;
}): Record<string, string> {
  return {
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
    trigger_id: triggerId(),
    is_enterprise_install: 'false',
  };
}

/** A button click (BlockActionPayload), or with `selected` a choice in a static_select. */
export function blockActionsPayload(fields: {
  actionId: string;
  value?: string;
  response_url: string;
  channel?: string;
  messageTs?: string;
  /** The parent's ts when the clicked message is a reply in a thread (Slack sends it on the message). */
  threadTs?: string;
  ephemeral?: boolean;
  user_id?: string;
  /** The chosen option's value of a static_select, instead of a button click. */
  selected?: string;
}): Record<string, unknown> {
  const channel = fields.channel ?? 'C0DEMOLLMTR';
  const ts = fields.messageTs ?? '1700000000.000001';
  return {
    type: 'block_actions',
    team: { id: 'T0DEMO', domain: 'demo' },
    user: { id: fields.user_id ?? 'U0DEMOCAROL', username: 'carol', name: 'carol', team_id: 'T0DEMO' },
    api_app_id: 'A0BURNRATE',
    token: 'legacy-verification-token',
    container: { type: 'message', message_ts: ts, channel_id: channel, is_ephemeral: fields.ephemeral ?? false },
    trigger_id: triggerId(),
    channel: { id: channel, name: 'llm-training' },
    message: {
      type: 'message',
      user: 'U0BOT',
      ts,
      ...(fields.threadTs ? { thread_ts: fields.threadTs } : {}),
      text: 'LLM Training is on track to spend 117% of its budget',
      blocks: [],
    },
    response_url: fields.response_url,
    actions: [
      fields.selected !== undefined
        ? {
            action_id: fields.actionId,
            block_id: 'actions-5',
            type: 'static_select',
            selected_option: { text: { type: 'plain_text', text: 'chosen', emoji: true }, value: fields.selected },
            placeholder: { type: 'plain_text', text: 'Owner', emoji: true },
            action_ts: '1700000100.000200',
          }
        : {
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
}

/** The event_callback Slack sends when `user` opens burnrate's App Home tab. */
export function appHomeOpenedPayload(user: string): Record<string, unknown> {
  return {
    token: 'legacy',
    team_id: 'T0DEMO',
    api_app_id: 'A0BURNRATE',
    type: 'event_callback',
    event_id: `Ev${user}`,
    event_time: 1700000000,
    event: { type: 'app_home_opened', user, channel: 'D0HOME', tab: 'home', event_ts: '1700000000.000100' },
  };
}

/** A submission of the budget modal (view_submission) by `user`, with the fields as typed. */
export function budgetSubmissionPayload(
  user: string,
  values: { monthly?: string; weekly?: string; thresholds?: string },
  team = 'ml-research',
): Record<string, unknown> {
  const field = (name: keyof typeof values) => ({ [name]: { [name]: { type: 'plain_text_input', value: values[name] ?? null } } });
  return {
    type: 'view_submission',
    team: { id: 'T0DEMO', domain: 'demo' },
    user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: 'T0DEMO' },
    api_app_id: 'A0BURNRATE',
    token: 'legacy',
    trigger_id: '1.2.3',
    view: {
      id: 'V0MODAL',
      type: 'modal',
      callback_id: 'budget_edit',
      private_metadata: team,
      state: { values: { ...field('monthly'), ...field('weekly'), ...field('thresholds') } },
      hash: '1',
    },
  };
}
