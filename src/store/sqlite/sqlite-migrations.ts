/**
 * The steps of the SQLite baseline (migrations.ts), applied in order; PRAGMA user_version records
 * how many have run. Never edit them: append a migration to migrations.ts.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE spend_daily (
    source TEXT NOT NULL,
    billing_period TEXT NOT NULL,     -- YYYY-MM of BillingPeriodStart: the unit a re-import replaces
    billing_account TEXT NOT NULL DEFAULT '',
    day TEXT NOT NULL,                -- YYYY-MM-DD (UTC)
    team TEXT NOT NULL,
    owner_tag TEXT,
    provider TEXT NOT NULL,
    sub_account TEXT,
    service TEXT NOT NULL,
    service_category TEXT,
    resource_id TEXT,
    charge_category TEXT NOT NULL,
    pricing_category TEXT,
    currency TEXT NOT NULL,
    billed REAL NOT NULL,
    effective REAL NOT NULL
  );
  -- Covers the budget checks' daily totals per team, so they never read the table itself.
  CREATE INDEX spend_daily_day_team ON spend_daily (day, team, billed, effective);
  CREATE INDEX spend_daily_scope ON spend_daily (source, billing_period, billing_account);

  CREATE TABLE source_freshness (
    source TEXT PRIMARY KEY,
    data_through TEXT,
    refreshed_at TEXT NOT NULL
  );

  CREATE TABLE findings (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    team TEXT NOT NULL,
    period TEXT NOT NULL,
    threshold REAL NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('new', 'open', 'resolved')),
    body TEXT NOT NULL,               -- the Finding as JSON, as last seen
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL,
    resolved_at TEXT
  );
  CREATE INDEX findings_period ON findings (period);

  CREATE TABLE outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    dedupe_key TEXT NOT NULL UNIQUE,
    target TEXT NOT NULL,
    message TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    ref TEXT,
    last_error TEXT,
    created_at TEXT NOT NULL,
    sent_at TEXT
  );
  CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
  `,
  `
  -- Every mutation from chat: who, what, when, and how it ended.
  CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at TEXT NOT NULL,
    platform TEXT NOT NULL,
    user_id TEXT NOT NULL,
    action TEXT NOT NULL,
    subject TEXT NOT NULL,
    result TEXT NOT NULL CHECK (result IN ('ok', 'refused', 'failed', 'dry-run', 'duplicate')),
    detail TEXT
  );
  CREATE INDEX audit_log_at ON audit_log (at);

  -- A snoozed alert group (kind:team:period) posts nothing until the snooze ends.
  CREATE TABLE snoozes (
    group_key TEXT PRIMARY KEY,
    until TEXT NOT NULL,
    by_user TEXT NOT NULL,
    at TEXT NOT NULL
  );

  CREATE TABLE acknowledgements (
    finding_id TEXT PRIMARY KEY,
    by_user TEXT NOT NULL,
    at TEXT NOT NULL
  );

  -- Budgets changed from chat; they override burnrate.yml until removed there and here.
  CREATE TABLE budget_overrides (
    team TEXT NOT NULL,
    cadence TEXT NOT NULL CHECK (cadence IN ('monthly', 'weekly')),
    amount REAL NOT NULL,
    thresholds TEXT,
    by_user TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (team, cadence)
  );

  -- An outbox item may update or reply to an earlier one: it waits until that one has a ref.
  ALTER TABLE outbox ADD COLUMN op TEXT NOT NULL DEFAULT 'post' CHECK (op IN ('post', 'update', 'reply'));
  ALTER TABLE outbox ADD COLUMN parent_key TEXT;
  -- The first message of an alert group, on each platform: escalations update it and reply in its thread.
  CREATE TABLE alert_threads (
    group_key TEXT NOT NULL,
    platform TEXT NOT NULL,
    root_key TEXT NOT NULL,
    PRIMARY KEY (group_key, platform)
  );
  `,
  `
  -- The local web console's messages: what burnrate posted to each team's console channel, thread
  -- replies (parent_id) and edits (updated_at). A row with private_to is seen by that user only:
  -- answers to their commands and clicks, and the commands they typed (author). Channel '@dm' is
  -- each user's direct-message view with burnrate.
  CREATE TABLE console_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    channel TEXT NOT NULL,
    parent_id INTEGER REFERENCES console_messages (id),
    private_to TEXT,
    author TEXT,
    message TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX console_messages_channel ON console_messages (channel, id);
  `,
  `
  -- Which currencies a period has: a loose index scan (one seek per distinct currency) instead of
  -- reading every row of the period from the table.
  CREATE INDEX spend_daily_currency_day ON spend_daily (currency, day);
  `,
  `
  -- Idle-GPU findings (gpu.idle, gpu.stalled), one row per instance and idle period. Their own
  -- table: they have no budget period or threshold. body is the finding as JSON.
  CREATE TABLE gpu_findings (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    team TEXT,
    instance_id TEXT NOT NULL,
    body TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('open', 'resolved')),
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL,
    resolved_at TEXT
  );
  CREATE INDEX gpu_findings_open ON gpu_findings (state, team);
  -- "Keep it running": the idle check leaves the instance alone until then.
  CREATE TABLE keep_exceptions (
    instance_id TEXT PRIMARY KEY,
    until TEXT NOT NULL,
    by_user TEXT NOT NULL,
    at TEXT NOT NULL
  );
  -- One row per finding and action, written before the cloud is asked: a second click, a retry or
  -- a concurrent click finds it and does nothing twice. outcome is null while the action runs.
  CREATE TABLE instance_actions (
    finding_id TEXT NOT NULL,
    action TEXT NOT NULL,
    instance_id TEXT NOT NULL,
    by_user TEXT NOT NULL,
    at TEXT NOT NULL,
    outcome TEXT,
    detail TEXT,
    PRIMARY KEY (finding_id, action)
  );
  `,
  `
  -- "Not ours": someone handed an instance to another team; later GPU checks route it there,
  -- whatever its tags say, until the tags are fixed and the row is deleted.
  CREATE TABLE instance_owners (
    instance_id TEXT PRIMARY KEY,
    team TEXT NOT NULL,
    by_user TEXT NOT NULL,
    at TEXT NOT NULL
  );
  `,
  `
  -- Where a chat platform's conversations can be reached later (Teams: the Bot Framework
  -- conversation reference captured on install or on the first message). reference is JSON.
  CREATE TABLE chat_conversations (
    platform TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    reference TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (platform, conversation_id)
  );
  `,
  `
  -- Spot migrations: one row per attempt to move an instance's launch template to spot, from its
  -- first approval to its revert. At most one is active per instance (partial unique index), so
  -- concurrent first approvals share a row. previous_version is the default to restore on revert.
  CREATE TABLE spot_migrations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    instance_id TEXT NOT NULL,
    team TEXT NOT NULL,
    launch_template TEXT NOT NULL,
    monthly_saving REAL NOT NULL,
    approvals_needed INTEGER NOT NULL CHECK (approvals_needed IN (1, 2)),
    state TEXT NOT NULL CHECK (state IN ('approving', 'migrating', 'migrated', 'reverting', 'reverted')),
    previous_version TEXT,
    spot_version TEXT,
    created_at TEXT NOT NULL,
    migrated_at TEXT,
    reverted_by TEXT,
    reverted_at TEXT,
    detail TEXT,
    -- When the state last changed: a migrating or reverting claim older than a few minutes died with its process.
    changed_at TEXT NOT NULL
  );
  CREATE UNIQUE INDEX spot_migrations_active ON spot_migrations (instance_id) WHERE state <> 'reverted';
  -- Who approved which migration: the primary key refuses the same approver twice.
  CREATE TABLE spot_approvals (
    migration_id INTEGER NOT NULL REFERENCES spot_migrations (id),
    approver TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (migration_id, approver)
  );
  -- Runaway sweeps: one row per team, sweep and cap crossed (sweep.spend, sweep.gpu-hours); open
  -- while the sweep stays over its cap. body is the finding as JSON.
  CREATE TABLE sweep_findings (
    id TEXT PRIMARY KEY,
    team TEXT NOT NULL,
    sweep TEXT NOT NULL,
    body TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('open', 'resolved')),
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL,
    resolved_at TEXT
  );
  CREATE INDEX sweep_findings_open ON sweep_findings (state, team);
  `,
  `
  -- Unit costs: the values of the configured experiment, run and sweep tag keys of each daily row
  -- (NULL when the cost line has no such tag).
  ALTER TABLE spend_daily ADD COLUMN experiment TEXT;
  ALTER TABLE spend_daily ADD COLUMN run_id TEXT;
  ALTER TABLE spend_daily ADD COLUMN sweep TEXT;

  -- A team's monthly cost review: posted once per team and month; closed once its summary is queued.
  CREATE TABLE reviews (
    team TEXT NOT NULL,
    month TEXT NOT NULL,               -- YYYY-MM reviewed
    body TEXT NOT NULL,                -- the review's figures as JSON, as posted
    created_at TEXT NOT NULL,
    closes_at TEXT NOT NULL,           -- when decisions are summed up (end of the month after)
    reminded_at TEXT,
    closed_at TEXT,
    PRIMARY KEY (team, month)
  );
  -- The review's top cost lines and the team's answer to each: who answered what and when.
  CREATE TABLE review_lines (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    team TEXT NOT NULL,
    month TEXT NOT NULL,
    rank INTEGER NOT NULL,
    body TEXT NOT NULL,                -- the line as JSON (key, label, service, cost, instance facts)
    answer TEXT CHECK (answer IN ('still-needed', 'right-size', 'spot', 'not-ours')),
    answered_by TEXT,
    answered_at TEXT,
    owner TEXT,
    owner_by TEXT,
    owner_at TEXT,
    reminded_at TEXT,
    UNIQUE (team, month, rank),
    FOREIGN KEY (team, month) REFERENCES reviews (team, month)
  );
  `,
  `
  -- The last failed refresh of a source, until one succeeds: its data is stale from then on, and
  -- budget checks say so instead of alerting on it.
  CREATE TABLE source_failures (
    source TEXT PRIMARY KEY,
    failed_at TEXT NOT NULL,
    error TEXT NOT NULL
  );
  -- Budgets defined in the clouds' budget services, as last listed; each listing replaces its source's rows.
  CREATE TABLE cloud_budgets (
    source TEXT NOT NULL,
    id TEXT NOT NULL,
    origin TEXT NOT NULL,
    team TEXT,
    body TEXT NOT NULL,               -- the CloudBudget as JSON
    PRIMARY KEY (source, id)
  );
  CREATE INDEX cloud_budgets_team ON cloud_budgets (team);
  `,
  `
  -- Where a spot migration's launch template lives (the port that made it: demo, aws:<region>), so
  -- a revert goes back there even after the instance is gone. NULL for migrations made before.
  ALTER TABLE spot_migrations ADD COLUMN place TEXT;
  `,
  `
  -- Each team's spend per day, summed from spend_daily and rebuilt by every import over the days
  -- it touched (spend-team-days.ts): budget checks and budget status read this, not every line.
  CREATE TABLE spend_team_days (
    day TEXT NOT NULL,
    team TEXT NOT NULL,
    billed REAL NOT NULL,
    effective REAL NOT NULL,
    PRIMARY KEY (day, team)
  ) WITHOUT ROWID;
  INSERT INTO spend_team_days (day, team, billed, effective)
    SELECT day, team, sum(billed), sum(effective) FROM spend_daily GROUP BY day, team;
  `,
  `
  -- Outbox items are leased before they are sent (status 'sending', owner, lease expiry), so two
  -- deliveries, in one process or several, never post the same item; an expired lease (a crash in
  -- flight) is taken over. in_doubt: the last attempt may have reached the platform (a crash, a
  -- lost answer), so the next one looks for the message, from first_attempt_at on, before posting
  -- again. first_failure_at starts the retry budget; suspected_duplicate marks re-posts that could
  -- not be checked.
  CREATE TABLE outbox_leased (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    dedupe_key TEXT NOT NULL UNIQUE,
    target TEXT NOT NULL,
    message TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    ref TEXT,
    last_error TEXT,
    created_at TEXT NOT NULL,
    sent_at TEXT,
    op TEXT NOT NULL DEFAULT 'post' CHECK (op IN ('post', 'update', 'reply')),
    parent_key TEXT,
    lease_owner TEXT,
    lease_until TEXT,
    in_doubt INTEGER NOT NULL DEFAULT 0,
    first_attempt_at TEXT,
    first_failure_at TEXT,
    suspected_duplicate INTEGER NOT NULL DEFAULT 0
  );
  INSERT INTO outbox_leased (id, dedupe_key, target, message, status, attempts, next_attempt_at, ref, last_error, created_at, sent_at, op, parent_key)
    SELECT id, dedupe_key, target, message, status, attempts, next_attempt_at, ref, last_error, created_at, sent_at, op, parent_key FROM outbox;
  DROP TABLE outbox;
  ALTER TABLE outbox_leased RENAME TO outbox;
  CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
  CREATE INDEX outbox_parent ON outbox (parent_key);
  `,
  `
  -- File exports come in parts (AWS Data Exports write a month as several files). Each row remembers
  -- the export and file it came from, and the file's content hash, so that importing a part again
  -- replaces only that part instead of the whole billing period. NULL: rows of API sources, and
  -- file imports from before parts were tracked.
  ALTER TABLE spend_daily ADD COLUMN export_id TEXT;
  ALTER TABLE spend_daily ADD COLUMN part TEXT;
  ALTER TABLE spend_daily ADD COLUMN content_hash TEXT;
  `,
  `
  -- What a snooze asked for (24h, 7d, period, 2w...): a replayed click of the same button while its
  -- snooze runs is a duplicate. NULL for snoozes made before.
  ALTER TABLE snoozes ADD COLUMN duration TEXT;
  `,
  `
  -- The FOCUS columns that tell charges apart (frequency, class, commitment discounts, list and
  -- contracted cost, marketplace publisher, invoice issuer, resource name, region), and the kind of
  -- each charge for forecasts (usage, recurring, one-time: cost-kind.ts). Rows imported before
  -- have NULL columns and are usage.
  ALTER TABLE spend_daily ADD COLUMN charge_frequency TEXT;
  ALTER TABLE spend_daily ADD COLUMN charge_class TEXT;
  ALTER TABLE spend_daily ADD COLUMN commitment_discount_id TEXT;
  ALTER TABLE spend_daily ADD COLUMN commitment_discount_type TEXT;
  ALTER TABLE spend_daily ADD COLUMN commitment_discount_category TEXT;
  ALTER TABLE spend_daily ADD COLUMN commitment_discount_status TEXT;
  ALTER TABLE spend_daily ADD COLUMN list_cost REAL;
  ALTER TABLE spend_daily ADD COLUMN contracted_cost REAL;
  ALTER TABLE spend_daily ADD COLUMN publisher TEXT;
  ALTER TABLE spend_daily ADD COLUMN invoice_issuer TEXT;
  ALTER TABLE spend_daily ADD COLUMN resource_name TEXT;
  ALTER TABLE spend_daily ADD COLUMN region TEXT;
  ALTER TABLE spend_daily ADD COLUMN cost_kind TEXT NOT NULL DEFAULT 'usage' CHECK (cost_kind IN ('usage', 'recurring', 'one-time'));

  -- Team days keep currencies and kinds apart: amounts in two currencies are never added, and a
  -- forecast projects usage, not a fee.
  DROP TABLE spend_team_days;
  CREATE TABLE spend_team_days (
    day TEXT NOT NULL,
    team TEXT NOT NULL,
    currency TEXT NOT NULL,
    kind TEXT NOT NULL,
    billed REAL NOT NULL,
    effective REAL NOT NULL,
    PRIMARY KEY (day, team, currency, kind)
  ) WITHOUT ROWID;
  INSERT INTO spend_team_days (day, team, currency, kind, billed, effective)
    SELECT day, team, currency, cost_kind, sum(billed), sum(effective) FROM spend_daily GROUP BY day, team, currency, cost_kind;
  `,
  `
  -- FOCUS 1.2's pricing currency: with the effective cost in it, the exchange rate the bill used.
  -- FOCUS 1.3's host provider: who hosts what another provider sells.
  ALTER TABLE spend_daily ADD COLUMN pricing_currency TEXT;
  ALTER TABLE spend_daily ADD COLUMN pricing_currency_effective_cost REAL;
  ALTER TABLE spend_daily ADD COLUMN host_provider TEXT;
  -- The provider columns (x_…) a FOCUS source keeps as dimensions, as a JSON object.
  ALTER TABLE spend_daily ADD COLUMN extensions TEXT;
  -- Few rows have one (only bills in a currency other than the prices'): the rates are read from these.
  CREATE INDEX spend_daily_pricing_currency ON spend_daily (pricing_currency) WHERE pricing_currency IS NOT NULL;
  -- Currencies are now read from the totals themselves: the index only slowed every import down.
  DROP INDEX spend_daily_currency_day;
  `,
  `
  -- The savings ledger: each resource an action stopped, with what it cost a day as the action saw
  -- it. Written in the transaction that completes the action, so a stop is never without its entry.
  CREATE TABLE savings_ledger (
    action TEXT NOT NULL,
    ref TEXT NOT NULL,
    resource_id TEXT NOT NULL,
    name TEXT,
    team TEXT,
    at TEXT NOT NULL,
    by_user TEXT NOT NULL,
    expected_daily REAL NOT NULL,
    currency TEXT NOT NULL,
    PRIMARY KEY (action, ref, resource_id)
  );
  `,
  `
  -- Hours of use, where the bill counts use in time: an instance's effective cost per hour.
  ALTER TABLE spend_daily ADD COLUMN usage_hours REAL;
  -- When a commitment ends, where the bill says (CUR): expiring commitments are told ahead.
  ALTER TABLE spend_daily ADD COLUMN commitment_end TEXT;
  `,
  `
  -- Kubernetes GPU usage, sampled: each node's GPUs held by each workload (and not requested by
  -- any, workload ''), as node-hours (share of the node's GPUs x hours) per UTC day. A node-day's
  -- cost is split over its rows by these shares.
  CREATE TABLE kube_gpu_usage (
    day TEXT NOT NULL,
    cluster TEXT NOT NULL,
    node TEXT NOT NULL,
    node_instance_id TEXT,
    node_hourly REAL NOT NULL,
    namespace TEXT NOT NULL,
    workload TEXT NOT NULL,
    team TEXT,
    node_hours REAL NOT NULL,
    PRIMARY KEY (day, cluster, node, namespace, workload)
  );
  -- When each cluster was last sampled: the next sample counts the time since.
  CREATE TABLE kube_usage_samples (
    cluster TEXT PRIMARY KEY,
    at TEXT NOT NULL
  );
  -- Each GPU node pool at each sample: nodes held, GPUs offered and requested, the nodes' list
  -- price an hour, and the hours the sample stands for. A pool that never goes to zero nodes while
  -- its GPUs sit unrequested is static capacity.
  CREATE TABLE kube_pool_samples (
    cluster TEXT NOT NULL,
    pool TEXT NOT NULL,
    manager TEXT,
    at TEXT NOT NULL,
    hours REAL NOT NULL,
    nodes INTEGER NOT NULL,
    gpus REAL NOT NULL,
    requested REAL NOT NULL,
    hourly REAL NOT NULL,
    PRIMARY KEY (cluster, pool, at)
  );
  `,
  `
  -- Claims that make several processes on one database act once: a chat delivery (a click, a
  -- command, a resent envelope) that reached two replicas, and a scheduled job's occurrence.
  CREATE TABLE inbound_claims (
    key TEXT PRIMARY KEY,
    expires_at TEXT NOT NULL
  );
  CREATE INDEX inbound_claims_expiry ON inbound_claims (expires_at);
  CREATE TABLE job_runs (
    job TEXT NOT NULL,
    occurrence TEXT NOT NULL,         -- the minute it was scheduled for (UTC ISO)
    owner TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (job, occurrence)
  );
  `,
];
