import type { CloudBudget } from '../domain/cloud-budget.js';
import type { Finding, FindingState, TrackedFinding } from '../domain/finding.js';
import type { GpuFinding, TrackedGpuFinding } from '../domain/gpu-finding.js';
import type { Message } from '../../templates/message.js';
import type { Period } from '../domain/period.js';
import type { ReviewAnswer, ReviewLine, ReviewRecord, TrackedReviewLine } from '../domain/review.js';
import type { SpendBatch, SpendDimension } from '../domain/spend.js';
import type { SweepFindingChange, TrackedSweepFinding } from '../domain/sweep-finding.js';

// The store is an interface of async methods so that a shared Postgres store can stand beside
// the embedded SQLite one later; SQL dialect details stay inside store/.

export interface Store {
  spend: SpendStore;
  breakdowns: SpendBreakdownStore;
  reviews: ReviewStore;
  freshness: FreshnessStore;
  cloudBudgets: CloudBudgetStore;
  findings: FindingStore;
  outbox: OutboxStore;
  audit: AuditLog;
  snoozes: SnoozeStore;
  acknowledgements: AcknowledgementStore;
  budgets: BudgetOverrideStore;
  console: ConsoleMessageStore;
  gpuFindings: GpuFindingStore;
  keeps: KeepExceptionStore;
  instanceActions: InstanceActionStore;
  instanceOwners: InstanceOwnerStore;
  conversations: ChatConversationStore;
  spotMigrations: SpotMigrationStore;
  sweepFindings: SweepFindingStore;
  /**
   * Writes batches of spend and their sources' freshness in one transaction: all or nothing.
   * Batches of file exports (scope.parts) replace only their own parts, and are refused when they
   * would shrink a billing period's spend by more than half, unless options.replacePeriod.
   */
  importBatches(batches: SpendBatch[], now?: Date, options?: ImportOptions): Promise<ImportSummary>;
  /**
   * Records a check run in one transaction: the findings' new states and the alerts to send.
   * A crash can therefore never leave a finding marked as alerted without its alert queued.
   */
  recordCheck(change: FindingChange, alerts: OutboxDraft[], now: Date): Promise<void>;
  /** Records an idle-GPU check run in one transaction, like recordCheck. */
  recordGpuCheck(change: GpuFindingChange, alerts: OutboxDraft[], now: Date): Promise<void>;
  /** Records a sweep-cap check run in one transaction, like recordCheck. */
  recordSweepCheck(change: SweepFindingChange, alerts: OutboxDraft[], now: Date): Promise<void>;
  isEmpty(): Promise<boolean>;
  close(): Promise<void>;
}

export interface ImportOptions {
  /** Replace whole billing periods (in each batch's source and accounts), even for file exports. */
  replacePeriod?: boolean;
}

export interface ImportSummary {
  rowsDeleted: number;
  rowsInserted: number;
  billingPeriods: string[];
  /** parts: only earlier rows of the same export parts were replaced; period: whole billing periods (or days) of the scope. */
  replaced: 'parts' | 'period';
  /** File names of the earlier export parts replaced. */
  replacedParts: string[];
}

export interface SpendFilter {
  period: Period;
  /** Only these teams; undefined means every team, including (untagged) and (unmapped). */
  teams?: readonly string[];
}

export interface SpendTotal {
  key: string;
  billed: number;
  effective: number;
}

export interface TeamDay {
  team: string;
  day: string;
  billed: number;
  effective: number;
}

export interface SpendStore {
  totals(filter: SpendFilter, by: SpendDimension): Promise<SpendTotal[]>;
  /** Daily totals per team from `since` on: the snapshot budget checks run on. */
  dailyByTeam(since: string): Promise<TeamDay[]>;
  currencies(period: Period): Promise<string[]>;
  /** Teams with spend from `source` from `since` on: whose numbers a failing source leaves short. */
  teamsOf(source: string, since: string): Promise<string[]>;
}

export interface CategoryDay {
  day: string;
  category: string;
  effective: number;
}

/** One cost line of a month: a resource, or a service where the bill names no resource. */
export interface CostLine {
  key: string;
  resourceId: string | null;
  service: string;
  category: string;
  pricing: string | null;
  effective: number;
}

export type UnitKind = 'experiment' | 'run' | 'sweep';

export interface UnitTotal {
  key: string;
  effective: number;
}

export interface SpendBreakdownStore {
  /** A team's effective spend per day and service category: the review's chart. */
  dailyByCategory(period: Period, team: string): Promise<CategoryDay[]>;
  /** A team's largest usage lines, most expensive first. */
  costLines(period: Period, team: string, limit: number): Promise<CostLine[]>;
  /** A team's spend per experiment, run or sweep tag value (untagged lines left out). */
  unitTotals(period: Period, team: string, unit: UnitKind): Promise<UnitTotal[]>;
}

export interface SourceFreshness {
  source: string;
  dataThrough: string | null;
  refreshedAt: string;
}

export interface SourceFailure {
  source: string;
  failedAt: string;
  error: string;
}

export interface FreshnessStore {
  list(): Promise<SourceFreshness[]>;
  /** Sources whose last refresh failed (a later success clears it). */
  failures(): Promise<SourceFailure[]>;
  recordFailure(source: string, error: string, now: Date): Promise<void>;
}

export interface CloudBudgetStore {
  /** Replaces everything `source` listed before, and records its freshness, in one transaction. */
  replace(source: string, budgets: readonly CloudBudget[], now: Date): Promise<void>;
  list(): Promise<CloudBudget[]>;
}

export interface FindingStore {
  /** Tracked findings of the given periods (open and resolved), to reconcile a new run against. */
  listForPeriods(periods: readonly string[]): Promise<TrackedFinding[]>;
  listOpen(): Promise<TrackedFinding[]>;
  get(id: string): Promise<TrackedFinding | null>;
}

export interface FindingChange {
  opened: Finding[];
  stillOpen: Finding[];
  resolved: string[];
}

/** pending: waits for its attempt; sending: leased by one delivery; sent; failed: gave up (permanent error or retry budget spent). */
export type OutboxStatus = 'pending' | 'sending' | 'sent' | 'failed';

export interface OutboxItem {
  id: number;
  dedupeKey: string;
  target: string;
  message: Message;
  status: OutboxStatus;
  attempts: number;
  nextAttemptAt: string;
  ref: string | null;
  lastError: string | null;
  op: 'post' | 'update' | 'reply';
  /** The platform reference of the parent item, for updates and replies. */
  parentRef: string | null;
  /** The last attempt may have reached the platform (a crash or a lost answer): look before posting again. */
  inDoubt: boolean;
  /** When the first attempt started: a message in doubt was posted after this. */
  firstAttemptAt: string | null;
  /** When the first failed attempt happened; the retry budget counts from here. */
  firstFailureAt: string | null;
}

/** How a failed attempt ends: back to pending at `nextAttemptAt`, or failed for good. */
export interface OutboxFailure {
  error: string;
  nextAttemptAt: Date;
  giveUp: boolean;
  /** The platform may have taken the message although the call failed (a timeout, a reset). */
  inDoubt: boolean;
  now: Date;
}

/** What the outbox holds, for /readyz, `burnrate status` and /metrics. */
export interface OutboxSummary {
  pending: number;
  /** Pending items whose last attempt failed: the chat platform is refusing or down. */
  failing: number;
  sending: number;
  sent: number;
  failed: number;
  /** Items posted again after an attempt that may have reached the platform, unchecked. */
  suspectedDuplicates: number;
  /** The oldest item still waiting, or null. */
  oldestPendingAt: string | null;
}

export interface OutboxDraft {
  /** Unique per intended message: enqueueing the same key twice sends once. */
  dedupeKey: string;
  /** `platform:address`, e.g. `slack:C0123ABCD` or `terminal:ml-research`. */
  target: string;
  message: Message;
  /** post (default), or update of / reply in the thread of the item whose key is `parentKey`. */
  op?: 'post' | 'update' | 'reply';
  parentKey?: string;
  /** For a post that starts alert groups' threads: the groups, so later changes find it. */
  threadOf?: string | readonly string[];
}

export interface OutboxStore {
  /** Enqueues unless an item with the same dedupe key exists: a retry of a job sends nothing twice. */
  enqueue(items: OutboxDraft[], now: Date): Promise<number>;
  /** Items due now (pending, attempt time reached, parent sent), without claiming them. */
  due(now: Date, limit?: number): Promise<OutboxItem[]>;
  /**
   * Leases the next due item to `owner` until `leaseUntil`, atomically: status 'sending'. An item
   * whose lease expired (its delivery crashed) is taken over, in doubt. Only items for `platforms`
   * (those running here); null when none is due.
   */
  claimNext(owner: string, now: Date, leaseUntil: Date, platforms: readonly string[]): Promise<OutboxItem | null>;
  /** Marks a leased item sent; false when the lease was lost to another delivery meanwhile. */
  markSent(id: number, owner: string, ref: string | null, now: Date, options?: { suspectedDuplicate?: boolean }): Promise<boolean>;
  markRetry(id: number, owner: string, failure: OutboxFailure): Promise<void>;
  /** Gives a leased item back unattempted, due again at `nextAttemptAt` (its method is throttled). */
  release(id: number, owner: string, nextAttemptAt: Date): Promise<void>;
  /**
   * Extends the lease of an item this delivery still holds (before a post that follows a long
   * look-up); false when it was taken over meanwhile: then this delivery must not post it.
   */
  renewLease(id: number, owner: string, leaseUntil: Date): Promise<boolean>;
  /**
   * When the next item `claimNext` could return falls due (for `platforms`, parent sent), or null
   * when none waits: an item waiting for its parent is due when the parent is sent, not before.
   */
  nextAttemptAt(platforms: readonly string[]): Promise<Date | null>;
  summary(): Promise<OutboxSummary>;
  /** Failed items, newest first. */
  failed(limit?: number): Promise<OutboxItem[]>;
  /** Queues failed items again (all, or those ids), with a fresh retry budget; returns how many. */
  retryFailed(now: Date, ids?: readonly number[]): Promise<number>;
  /** Key of the first message of an alert group on a platform, if one was queued. */
  threadRoot(groupKey: string, platform: string): Promise<string | null>;
}

export interface AuditEntry {
  at: Date;
  platform: string;
  userId: string;
  /** The action or command, e.g. `budget.ack`, `budget set`. */
  action: string;
  /** What it acted on: a finding id, a team. */
  subject: string;
  result: 'ok' | 'refused' | 'failed' | 'dry-run' | 'duplicate';
  detail?: string | null;
}

export interface AuditLog {
  record(entry: AuditEntry): Promise<void>;
  list(limit?: number): Promise<(AuditEntry & { id: number })[]>;
}

export interface Snooze {
  groupKey: string;
  until: Date;
  byUser: string;
  at: Date;
  /** What was asked for (`24h`, `7d`, `period`, `2w`); null for snoozes recorded before it was kept. */
  duration?: string | null;
}

/**
 * What came of a snooze request. set: it is in force now (`replaced`: the active one it replaced);
 * same: the same duration already runs for the group (a repeated click); longer: an active snooze
 * ends later and was kept.
 */
export type SnoozeOutcome = { kind: 'set'; snooze: Snooze; replaced: Snooze | null } | { kind: 'same' | 'longer'; snooze: Snooze };

export interface SnoozeStore {
  set(snooze: Snooze): Promise<void>;
  /**
   * Applies a snooze in one step, so concurrent clicks cannot both win. Unless `explicit`, a request
   * for the duration already running, or for an end no later than the active one, changes nothing.
   */
  request(snooze: Snooze & { duration: string }, options: { explicit: boolean }): Promise<SnoozeOutcome>;
  active(now: Date): Promise<Snooze[]>;
}

export interface Acknowledgement {
  findingId: string;
  byUser: string;
  at: Date;
}

export interface AcknowledgementStore {
  acknowledge(ack: Acknowledgement): Promise<{ ack: Acknowledgement; first: boolean }>;
  get(findingId: string): Promise<Acknowledgement | null>;
}

export interface BudgetOverride {
  team: string;
  cadence: 'monthly' | 'weekly';
  amount: number;
  thresholds: number[] | null;
  byUser: string;
  at: Date;
}

export interface BudgetOverrideStore {
  set(override: BudgetOverride): Promise<void>;
  list(): Promise<BudgetOverride[]>;
}

export type { FindingState };

/** A message of the local web console: posted by burnrate, or a command a user typed. */
export interface ConsoleMessage {
  id: number;
  /** A team id (its console channel) or `@dm`, each user's direct-message view. */
  channel: string;
  /** The thread this message replies in; threads are one level deep, as in Slack. */
  parentId: number | null;
  /** Only this user sees the message (answers to them); null: everyone in the channel. */
  privateTo: string | null;
  /** The user who typed it (an echoed command); null when burnrate wrote it. */
  author: string | null;
  message: Message;
  createdAt: string;
  updatedAt: string;
}

export interface ConsoleMessageDraft {
  channel: string;
  parentId?: number | null;
  privateTo?: string | null;
  author?: string | null;
  message: Message;
}

export interface ConsoleMessageStore {
  add(draft: ConsoleMessageDraft, now: Date): Promise<ConsoleMessage>;
  /** Replaces a message's content; null when there is no such message. */
  update(id: number, message: Message, now: Date): Promise<ConsoleMessage | null>;
  get(id: number): Promise<ConsoleMessage | null>;
  /**
   * What `viewer` sees in a channel: the latest `limit` top-level messages visible to them and
   * the visible replies in their threads, oldest first.
   */
  list(channel: string, viewer: string, limit?: number): Promise<ConsoleMessage[]>;
}

export interface GpuFindingChange {
  opened: GpuFinding[];
  stillOpen: GpuFinding[];
  resolved: string[];
}

export interface GpuFindingStore {
  listOpen(): Promise<TrackedGpuFinding[]>;
  get(id: string): Promise<TrackedGpuFinding | null>;
}

/** "Keep it running" until a time: the idle check leaves the instance alone until then. */
export interface KeepException {
  instanceId: string;
  until: Date;
  byUser: string;
  at: Date;
}

export interface KeepExceptionStore {
  /** Sets (or moves) the instance's exception. */
  set(keep: KeepException): Promise<void>;
  active(now: Date): Promise<KeepException[]>;
}

/** The idempotency row of an instance action, written before the cloud is asked. */
export interface InstanceActionRecord {
  findingId: string;
  /** e.g. `instance.stop`. */
  action: string;
  instanceId: string;
  byUser: string;
  at: Date;
  /** null while the action runs; the StopResult outcome once done. */
  outcome: string | null;
  detail: string | null;
}

export interface InstanceActionStore {
  /** Inserts the row unless one exists: `first` says whether this caller may act; else the existing row. */
  claim(record: Omit<InstanceActionRecord, 'outcome' | 'detail'>): Promise<{ record: InstanceActionRecord; first: boolean }>;
  complete(findingId: string, action: string, outcome: string, detail: string): Promise<void>;
  /** Drops a claim whose action did nothing (dry run, refused, failed, busy again), so it can be tried again. */
  release(findingId: string, action: string): Promise<void>;
  get(findingId: string, action: string): Promise<InstanceActionRecord | null>;
}

/** A person handed an instance to a team ("Not ours"); it outranks the instance's tags. */
export interface InstanceOwner {
  instanceId: string;
  team: string;
  byUser: string;
  at: Date;
}

export interface InstanceOwnerStore {
  list(): Promise<InstanceOwner[]>;
  /** Records the owner, moves the instance's open findings to it and queues `alerts`, in one transaction. */
  reassign(owner: InstanceOwner, alerts: OutboxDraft[]): Promise<void>;
}

/** A conversation burnrate may write to later: a channel, a group chat or a personal chat. */
export interface ChatConversation {
  /** The outbox platform prefix, e.g. `msteams`. */
  platform: string;
  /** The platform's conversation id, as a team's config names it (a Teams channel or chat id). */
  conversationId: string;
  /** `channel`, `groupChat` or `personal`: threads exist in channels only. */
  kind: string;
  /** What the platform needs to reach the conversation again (the Bot Framework conversation reference). */
  reference: Record<string, unknown>;
  updatedAt: Date;
}

export interface ChatConversationStore {
  /** Inserts or refreshes the conversation (its reference may change, e.g. a new service URL). */
  save(conversation: ChatConversation): Promise<void>;
  get(platform: string, conversationId: string): Promise<ChatConversation | null>;
}

/**
 * approving: collecting approvals; migrating: the launch template is being changed; migrated: it
 * requests spot; reverting: being put back; reverted: on demand again (a new migration may start).
 */
export type SpotMigrationState = 'approving' | 'migrating' | 'migrated' | 'reverting' | 'reverted';

export interface SpotMigration {
  id: number;
  instanceId: string;
  team: string;
  launchTemplate: string;
  /** The spot port's place (`demo`, `aws:<region>`) the migration goes through; null for migrations recorded before places were. */
  place: string | null;
  /** USD a month, as recommended when the first approval came. */
  monthlySaving: number;
  approvalsNeeded: number;
  state: SpotMigrationState;
  /** The launch template's default version before the migration: what a revert restores. */
  previousVersion: string | null;
  spotVersion: string | null;
  createdAt: Date;
  migratedAt: Date | null;
  revertedBy: string | null;
  revertedAt: Date | null;
  detail: string | null;
  /** When the state last changed. */
  changedAt: Date;
  /** Who approved, first first. */
  approvals: { approver: string; at: Date }[];
}

export interface SpotApprovalDraft {
  instanceId: string;
  team: string;
  launchTemplate: string;
  place: string;
  monthlySaving: number;
  approvalsNeeded: 1 | 2;
  approver: string;
  at: Date;
}

export interface SpotApprovalResult {
  /** recorded: a new approval; same-approver: this approver had approved already; not-approving: past approval (migrating, migrated). */
  outcome: 'recorded' | 'same-approver' | 'not-approving';
  /** The migration with its approvals after this call. */
  migration: SpotMigration;
}

export interface SpotMigrationStore {
  /** Records an approval on the instance's active migration, starting one if there is none: one transaction. */
  approve(draft: SpotApprovalDraft): Promise<SpotApprovalResult>;
  get(id: number): Promise<SpotMigration | null>;
  /** The instance's migration that is not reverted, if any. */
  active(instanceId: string): Promise<SpotMigration | null>;
  /** Moves a migration from one state to another; false when it was not in `from` (someone else moved it). */
  transition(id: number, from: SpotMigrationState, to: SpotMigrationState, at: Date): Promise<boolean>;
  /** Takes over a migrating or reverting claim unchanged since before `changedBefore` (its process died); false when it is fresh or moved on. */
  reclaimStale(id: number, state: 'migrating' | 'reverting', changedBefore: Date, at: Date): Promise<boolean>;
  completeMigration(id: number, change: { previousVersion: string | null; spotVersion: string | null; at: Date; detail: string }): Promise<void>;
  completeRevert(id: number, change: { byUser: string; at: Date; detail: string }): Promise<void>;
}

export interface SweepFindingStore {
  listOpen(): Promise<TrackedSweepFinding[]>;
  get(id: string): Promise<TrackedSweepFinding | null>;
}

export interface ReviewStore {
  /**
   * Records a team's review of a month (once: a second call keeps the first figures and lines) and
   * queues what `draftsFor` says for its stored lines, in one transaction.
   */
  open(
    review: Omit<ReviewRecord, 'remindedAt' | 'closedAt'>,
    lines: readonly ReviewLine[],
    draftsFor: (lines: TrackedReviewLine[], record: ReviewRecord) => OutboxDraft[],
    now: Date,
  ): Promise<{ created: boolean; record: ReviewRecord; lines: TrackedReviewLine[]; queued: number }>;
  get(team: string, month: string): Promise<ReviewRecord | null>;
  line(id: number): Promise<TrackedReviewLine | null>;
  lines(team: string, month: string): Promise<TrackedReviewLine[]>;
  /** Reviews whose summary has not been posted yet. */
  listOpen(): Promise<ReviewRecord[]>;
  /** Records an answer; `changed` is false when the line already had this answer. */
  answer(id: number, answer: ReviewAnswer, byUser: string, at: Date): Promise<{ changed: boolean; line: TrackedReviewLine }>;
  setOwner(id: number, owner: string, byUser: string, at: Date): Promise<{ changed: boolean; line: TrackedReviewLine }>;
  /** Marks the review reminded and queues the reminder; false (and nothing queued) when it was reminded before. */
  remind(team: string, month: string, lineIds: readonly number[], drafts: OutboxDraft[], now: Date): Promise<boolean>;
  /** Marks the review closed and queues its summary; false (and nothing queued) when it was closed before. */
  close(team: string, month: string, drafts: OutboxDraft[], now: Date): Promise<boolean>;
}
