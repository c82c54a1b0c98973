import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SlashCommand } from '@slack/bolt';
import type { Deps } from '../../deps.js';
import { busyMessage } from '../../../templates/private-reply.js';
import { translateGuarded } from '../../inbound/guarded-dispatch.js';
import type { Answerer } from './answer/answerer.js';
import type { Delivery } from './redelivery.js';
import { respondAt } from './response-url-reply.js';
import { commandRequest } from './slack-interaction.js';
import { ephemeralResponse, privateReply, type ReplyTools } from './slack-reply.js';
import { redactTokens } from './slack-tokens.js';

/** The acknowledgement of a command turned away because answers are falling behind (built once: it is sent in floods). */
const BUSY_ACK = ephemeralResponse(busyMessage());

/** Errors logged from Slack requests never carry a token. */
const SLACK = { name: 'Slack', redact: redactTokens };

/** Acknowledges a command: an empty body, or a message (the busy one) in it. */
export type CommandAck = (body?: typeof BUSY_ACK) => Promise<void>;

/**
 * What is done with a `/burnrate` command, however it arrived: acknowledged at once (Slack gives up
 * after 3 s), or turned away in the acknowledgement while answers are falling behind; then handed to
 * the answerer, which computes and delivers the answer elsewhere (worker threads when the database
 * allows), so the event loop that acknowledges never computes one.
 */
export function slashCommandIntake(
  deps: Deps,
  answerer: Answerer,
): (command: SlashCommand, ack: CommandAck, tools: ReplyTools) => Promise<void> {
  return async (command, ack, tools) => {
    // Overloaded: said in the acknowledgement itself, which costs no further request.
    if (!answerer.accepting()) return ack(BUSY_ACK);
    await ack();
    const reply = privateReply(tools, { channel: command.channel_id || null, userId: command.user_id });
    const request = await translateGuarded(deps, reply, () => commandRequest(command, deps.clock()), SLACK);
    // Not awaited: what was built for this request is let go once the ack is out, instead of living
    // (and being copied by every garbage collection) until the answer is delivered. The answerer
    // keeps track of answers in flight itself, and never rejects.
    if (request) void answerer.answer(request, reply);
  };
}

/**
 * A command over HTTP taken before Bolt: the route has read, verified and parsed the request
 * (slack-http.ts), so the acknowledging thread does only the delivery guard, the ack and the hand-over.
 * Through Bolt a command paid for a second parse of the body, its request and ack objects, the
 * listener chain and its garbage: more CPU per command than the answer's hand-over itself.
 * Resolves false for a command that is not burnrate's, which goes on to Bolt as before.
 */
export function directCommands(options: {
  command: string;
  guard: (delivery: Delivery) => Promise<boolean>;
  intake: ReturnType<typeof slashCommandIntake>;
  tools: Omit<ReplyTools, 'respond'>;
  log: Deps['log'];
}): (body: Record<string, unknown>, req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  return async (body, req, res) => {
    if (body.command !== options.command) return false;
    // What Bolt's HTTPReceiver sends for ack() and ack(body).
    const ack: CommandAck = async (message) => {
      if (message) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message));
      else res.writeHead(200).end();
    };
    try {
      const retry = { retryNum: retryNumOf(req.headers['x-slack-retry-num']), retryReason: first(req.headers['x-slack-retry-reason']) };
      if (!(await options.guard({ ...retry, body }))) return (await ack(), true);
      const command = body as unknown as SlashCommand;
      const url = typeof command.response_url === 'string' && command.response_url !== '' ? command.response_url : null;
      await options.intake(command, ack, { ...options.tools, ...(url ? { respond: respondAt(url) } : {}) });
    } catch (error) {
      options.log.error({ err: redactTokens((error as Error).message) }, 'slack request failed');
      if (!res.headersSent) res.writeHead(500).end();
    }
    return true;
  };
}

/** Bolt's reading of x-slack-retry-num: the first value, as an integer. */
function retryNumOf(header: string | string[] | undefined): number | undefined {
  const value = first(header);
  return value === undefined ? undefined : Number.parseInt(value, 10);
}

function first(header: string | string[] | undefined): string | undefined {
  return Array.isArray(header) ? header[0] : header;
}
