import type { ConversationReference } from 'botbuilder';
import type { Logger } from 'pino';
import type { TeamConfig } from '../../config/schema.js';
import type { ChatConversationStore } from '../../store/chat-conversations.js';
import type { Message } from '../../../templates/message.js';
import { DeliveryError, type ChatPort } from '../../ports/chat-port.js';
import { cardActivity } from './teams-card.js';
import { connectorWithoutRetries, type ConnectorConversations } from './connector-client.js';
import { asReference, TEAMS_PLATFORM, threadId } from './teams-conversations.js';
import { createTeamsAdapter, type TeamsAdapter, type TeamsAuthEndpoints } from './teams-adapter.js';
import { toDeliveryError } from './teams-errors.js';
import type { TeamsSettings } from './teams-settings.js';
import { TeamsRoster, type RosterMember } from './teams-roster.js';

/**
 * Teams refuses a card whose activity is over about 28 KB. A chart's PNG grows by a third as
 * base64; 19,000 bytes become 25,336 characters, which leaves room for the title, the alt text
 * and the card around them.
 */
export const TEAMS_INLINE_IMAGE_BYTES = 19_000;

/** How long to wait before trying a conversation burnrate has no reference for yet (the app may be installed meanwhile). */
const NOT_INSTALLED_RETRY_MS = 10 * 60_000;

/**
 * The Teams side of the chat port: proactive messages through CloudAdapter, addressed by the
 * conversation references captured when the app was installed or first spoken to. A message's
 * reference is its activity id; a reply goes to the thread under it (`;messageid=`) in a channel,
 * and is a plain post in chats, which have no threads.
 */
export class TeamsChat implements ChatPort {
  readonly platform = TEAMS_PLATFORM;
  readonly capabilities = { threads: true, ephemeral: false, modals: false, files: false, inlineImageBytes: TEAMS_INLINE_IMAGE_BYTES };

  constructor(
    /** The adapter of this bot: inbound requests and proactive turns share its credentials. */
    readonly adapter: TeamsAdapter,
    /** The bot's app id ('' without authentication): proactive turns are made in its name. */
    private readonly appId: string,
    private readonly conversations: ChatConversationStore,
    log: Logger,
  ) {
    this.people = new TeamsRoster(
      {
        conversations: async () => (await conversations.list(TEAMS_PLATFORM)).map((c) => c.conversationId),
        members: (address) => this.members(address),
      },
      log,
    );
  }

  /** People by name from the rosters of the conversations burnrate is in. */
  readonly people: TeamsRoster;

  addressOf(team: TeamConfig): string | null {
    return team.msteams?.channel ?? null;
  }

  /** The roster of a conversation, every page of the Bot Connector's paged members. */
  async members(address: string): Promise<RosterMember[]> {
    const members: RosterMember[] = [];
    await this.inConversation(address, null, async (connector, conversationId) => {
      let continuationToken: string | undefined;
      do {
        const page = await connector.getConversationPagedMembers(conversationId, {
          pageSize: 500,
          ...(continuationToken ? { continuationToken } : {}),
        });
        // Teams adds email and userPrincipalName to each member (TeamsChannelAccount).
        for (const m of (page.members ?? []) as (RosterMember & Record<string, unknown>)[])
          members.push({ id: m.id, name: m.name, aadObjectId: m.aadObjectId, email: m.email, userPrincipalName: m.userPrincipalName });
        continuationToken = page.continuationToken || undefined;
      } while (continuationToken);
      return {};
    });
    return members;
  }

  async post(address: string, message: Message): Promise<{ ref: string | null }> {
    const sent = await this.inConversation(address, null, (connector, conversationId, from) =>
      connector.sendToConversation(conversationId, { ...render(message), from }),
    );
    return { ref: sent.id ?? null };
  }

  async update(address: string, ref: string, message: Message): Promise<void> {
    await this.inConversation(address, null, (connector, conversationId, from) =>
      connector.updateActivity(conversationId, ref, { ...render(message), id: ref, from }),
    );
  }

  async reply(address: string, parentRef: string, message: Message): Promise<{ ref: string | null }> {
    const sent = await this.inConversation(address, parentRef, (connector, conversationId, from) =>
      connector.sendToConversation(conversationId, { ...render(message), from }),
    );
    return { ref: sent.id ?? null };
  }

  /**
   * Runs `act` with the connector client of a proactive turn in the conversation; its target is the
   * conversation itself, or the thread under `parentRef` in a channel. The client is called
   * directly: a turn's sendActivity would make every post a reply to the turn's made-up activity.
   */
  private async inConversation(
    address: string,
    parentRef: string | null,
    act: (connector: ConnectorConversations, conversationId: string, from: ConversationReference['bot']) => Promise<{ id?: string }>,
  ): Promise<{ id?: string }> {
    const stored = await this.conversations.get(TEAMS_PLATFORM, address);
    if (!stored) {
      throw new DeliveryError(
        `Teams: no conversation ${address} known yet: install the burnrate app in that team (or chat) or mention @burnrate there once`,
        false,
        NOT_INSTALLED_RETRY_MS,
      );
    }
    const reference = asReference(stored.reference);
    const conversationId = parentRef && stored.kind === 'channel' ? threadId(address, parentRef) : address;
    let result: { id?: string } = {};
    try {
      await this.adapter.continueConversationAsync(this.appId, reference, async (context) => {
        result = await act(connectorWithoutRetries(context), conversationId, reference.bot!);
      });
    } catch (error) {
      throw toDeliveryError(error);
    }
    return result;
  }
}

function render(message: Message): ReturnType<typeof cardActivity> {
  try {
    return cardActivity(message);
  } catch (error) {
    // Only a template bug makes rendering throw; no retry can fix it.
    throw new DeliveryError(`cannot render message for Teams: ${(error as Error).message}`, true);
  }
}

/** The Teams chat port for these settings, on its own CloudAdapter. */
export function createTeamsChat(
  settings: TeamsSettings,
  conversations: ChatConversationStore,
  log: Logger,
  endpoints?: TeamsAuthEndpoints,
): TeamsChat {
  return new TeamsChat(createTeamsAdapter(settings, log, endpoints), settings.insecure ? '' : settings.appId, conversations, log);
}
