import type { ChannelAccount, ConversationParameters } from '@microsoft/agents-activity';
import type { Logger } from 'pino';
import type { TeamConfig } from '../../config/schema.js';
import type { ChatConversationStore } from '../../store/chat-conversations.js';
import type { Message } from '../../../templates/message.js';
import { DeliveryError, type ChatPort } from '../../ports/chat-port.js';
import { cardActivity } from './teams-card.js';
import { turnConnector, type ConnectorConversations } from './connector-client.js';
import { asReference, TEAMS_PLATFORM, threadId } from './teams-conversations.js';
import { createTeamsAdapter, type TeamsAdapter, type TeamsAuthEndpoints } from './teams-adapter.js';
import { toDeliveryError } from './teams-errors.js';
import type { TeamsSettings } from './teams-settings.js';
import { TeamsRoster, type RosterMember } from './teams-roster.js';
import { EntraGroups } from './entra-groups.js';
import { graphAccess, type GraphOptions } from './graph-access.js';
import type { ChatConversation } from '../../domain/chat-conversation.js';

/**
 * Teams refuses a card whose activity is over about 28 KB. A chart's PNG grows by a third as
 * base64; 19,000 bytes become 25,336 characters, which leaves room for the title, the alt text
 * and the card around them.
 */
export const TEAMS_INLINE_IMAGE_BYTES = 19_000;

/** How long to wait before trying a conversation burnrate has no reference for yet (the app may be installed meanwhile). */
const NOT_INSTALLED_RETRY_MS = 10 * 60_000;

/**
 * The address of a person (a direct message): `person:` and their Teams user id or Entra object id.
 * Their 1:1 chat with the bot is created on first use and remembered under this address, so a
 * retried delivery posts into the same chat instead of creating it again.
 */
const PERSON = 'person:';

/**
 * The Teams side of the chat port: proactive messages through the Agents SDK's CloudAdapter, addressed by the
 * conversation references captured when the app was installed or first spoken to. A message's
 * reference is its activity id; a reply goes to the thread under it (`;messageid=`) in a channel,
 * and is a plain post in chats, which have no threads.
 */
export class TeamsChat implements ChatPort {
  readonly platform = TEAMS_PLATFORM;
  readonly capabilities = {
    threads: true,
    ephemeral: false,
    modals: false,
    files: false,
    inlineImageBytes: TEAMS_INLINE_IMAGE_BYTES,
    nativeCharts: true,
  };

  constructor(
    /** The adapter of this bot: inbound requests and proactive turns share its credentials. */
    readonly adapter: TeamsAdapter,
    /** The bot's app id (none without authentication): proactive turns are made in its name. */
    private readonly appId: string | null,
    private readonly conversations: ChatConversationStore,
    log: Logger,
    groups?: EntraGroups,
  ) {
    this.people = new TeamsRoster(
      {
        // A 1:1 chat burnrate opened holds only that person, whom the team's roster lists already.
        conversations: async () => (await this.installed()).map((c) => c.conversationId),
        members: (address) => this.members(address),
      },
      log,
      undefined,
      groups,
    );
  }

  /** People by name from the rosters of the conversations burnrate is in. */
  readonly people: TeamsRoster;

  addressOf(team: TeamConfig): string | null {
    return team.msteams?.channel ?? null;
  }

  /**
   * A person Teams can name (a 29: id, an Entra object id, a roster member): a 1:1 chat with the bot.
   * An Entra group's object id looks like a person's, but a group has no 1:1 chat: none is asked for it.
   */
  addressOfUser(userId: string): string | null {
    return this.people.isUserId(userId) && !this.people.group(userId) ? `${PERSON}${userId}` : null;
  }

  /** The roster of a conversation, every page of the Bot Connector's paged members. */
  async members(address: string): Promise<RosterMember[]> {
    const members: RosterMember[] = [];
    await this.inConversation(address, null, async (connector, conversationId) => {
      let continuationToken: string | undefined;
      do {
        const page = await connector.pagedMembers(conversationId, {
          pageSize: 500,
          ...(continuationToken ? { continuationToken } : {}),
        });
        // Teams adds email and userPrincipalName to each member (TeamsChannelAccount).
        for (const m of page.members ?? [])
          members.push({
            id: String(m.id ?? ''),
            name: String(m.name ?? ''),
            aadObjectId: m.aadObjectId,
            email: typeof m.email === 'string' ? m.email : undefined,
            userPrincipalName: typeof m.userPrincipalName === 'string' ? m.userPrincipalName : undefined,
          });
        continuationToken = page.continuationToken || undefined;
      } while (continuationToken);
      return {};
    });
    return members;
  }

  async post(address: string, message: Message): Promise<{ ref: string | null }> {
    const sent = await this.inConversation(address, null, (connector, conversationId, from) =>
      connector.sendToConversation(conversationId, render(message, { from })),
    );
    return { ref: sent.id ?? null };
  }

  async update(address: string, ref: string, message: Message): Promise<void> {
    await this.inConversation(address, null, (connector, conversationId, from) =>
      connector.updateActivity(conversationId, ref, render(message, { id: ref, from })),
    );
  }

  async reply(address: string, parentRef: string, message: Message): Promise<{ ref: string | null }> {
    const sent = await this.inConversation(address, parentRef, (connector, conversationId, from) =>
      connector.sendToConversation(conversationId, render(message, { from })),
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
    act: (connector: ConnectorConversations, conversationId: string, from: ChannelAccount) => Promise<{ id?: string }>,
  ): Promise<{ id?: string }> {
    const stored = address.startsWith(PERSON)
      ? await this.personalChat(address.slice(PERSON.length))
      : await this.conversations.get(TEAMS_PLATFORM, address);
    if (!stored) {
      throw new DeliveryError(
        address.startsWith(PERSON)
          ? `Teams: cannot start a chat with ${address.slice(PERSON.length)}: burnrate is installed in no team yet`
          : `Teams: no conversation ${address} known yet: install the burnrate app in that team (or chat) or mention @burnrate there once`,
        false,
        NOT_INSTALLED_RETRY_MS,
      );
    }
    const reference = asReference(stored.reference);
    const conversation = reference.conversation.id;
    const conversationId = parentRef && stored.kind === 'channel' ? threadId(conversation, parentRef) : conversation;
    let result: { id?: string } = {};
    try {
      await this.adapter.continueConversation(this.proactiveIdentity(), reference, async (context) => {
        result = await act(turnConnector(context), conversationId, reference.agent ?? {});
      });
    } catch (error) {
      throw toDeliveryError(error);
    }
    return result;
  }

  /**
   * The bot's 1:1 chat with a person: the one opened before, or a new one (POST /v3/conversations)
   * on the service URL and in the tenant of the team whose roster lists them, else of any
   * conversation burnrate is installed in. Teams takes the person's 29: id, or their Entra object
   * id where the app is installed for them. Null when burnrate is installed nowhere yet.
   */
  private async personalChat(userId: string): Promise<ChatConversation | null> {
    const key = `${PERSON}${userId}`;
    const known = await this.conversations.get(TEAMS_PLATFORM, key);
    if (known) return known;
    const entry = this.people.entryOf(userId);
    const from = (entry && (await this.conversations.get(TEAMS_PLATFORM, entry.conversation))) || (await this.anyInstalled());
    if (!from) return null;
    const reference = asReference(from.reference);
    const tenantId = (reference.conversation as { tenantId?: string } | undefined)?.tenantId;
    let created: { id?: string; serviceUrl?: string } = {};
    try {
      await this.adapter.continueConversation(this.proactiveIdentity(), reference, async (context) => {
        // `bot` is the REST API's name for the sender (the SDK's type calls it `agent`).
        created = await turnConnector(context).createConversation({
          isGroup: false,
          bot: reference.agent,
          members: [entry ? { id: entry.id, name: entry.name } : { id: userId }],
          ...(tenantId ? { tenantId, channelData: { tenant: { id: tenantId } } } : {}),
        } as unknown as ConversationParameters);
      });
    } catch (error) {
      throw toDeliveryError(error);
    }
    if (!created.id) throw new DeliveryError(`Teams: creating a chat with ${userId} returned no conversation id`);
    const chat: ChatConversation = {
      platform: TEAMS_PLATFORM,
      conversationId: key,
      kind: 'personal',
      reference: {
        ...(from.reference as Record<string, unknown>),
        serviceUrl: created.serviceUrl ?? reference.serviceUrl,
        conversation: { id: created.id, conversationType: 'personal', isGroup: false, ...(tenantId ? { tenantId } : {}) },
      },
      updatedAt: new Date(),
    };
    await this.conversations.save(chat);
    return chat;
  }

  /**
   * Who a proactive turn is made as: the bot's app id, whose token the SDK asks the credential for;
   * without authentication an identity with no audience, which the SDK calls the connector with no token for.
   */
  private proactiveIdentity(): string | Record<string, never> {
    return this.appId ?? {};
  }

  /** A team's channel first (its service URL serves the whole tenant), else any conversation. */
  private async anyInstalled(): Promise<ChatConversation | null> {
    const all = await this.installed();
    return all.find((c) => c.kind === 'channel') ?? all[0] ?? null;
  }

  /** The conversations burnrate was installed in or spoken to: not the 1:1 chats it opened itself. */
  private async installed(): Promise<ChatConversation[]> {
    return (await this.conversations.list(TEAMS_PLATFORM)).filter((c) => !c.conversationId.startsWith(PERSON));
  }
}

function render(message: Message, fields: Record<string, unknown>): ReturnType<typeof cardActivity> {
  try {
    return cardActivity(message, fields);
  } catch (error) {
    // Only a template bug makes rendering throw; no retry can fix it.
    throw new DeliveryError(`cannot render message for Teams: ${(error as Error).message}`, true);
  }
}

/** Who holds roles, so the Entra groups among them are read; and how Graph is reached. */
export interface TeamsPeopleOptions {
  /** The burnrate.yml entries holding roles (admins, owners, approvers). */
  roleEntries: () => readonly string[];
  graph?: GraphOptions;
}

/** The Teams chat port for these settings, on its own CloudAdapter. */
export function createTeamsChat(
  settings: TeamsSettings,
  conversations: ChatConversationStore,
  log: Logger,
  endpoints?: TeamsAuthEndpoints,
  people?: TeamsPeopleOptions,
): TeamsChat {
  const graph = people ? graphAccess(settings, conversations, people.graph) : null;
  const groups = people && graph && !graph.unavailable ? new EntraGroups(graph.client, people.roleEntries, log) : undefined;
  return new TeamsChat(createTeamsAdapter(settings, log, endpoints), settings.insecure ? null : settings.appId, conversations, log, groups);
}
