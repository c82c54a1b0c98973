/**
 * `burnrate <verb> --help`: one page per verb, as data. Each verb reads its usage line from here,
 * so the line a usage error prints and the line --help prints are the same text.
 */
export interface HelpPage {
  /** One line: what the verb does. */
  summary: string;
  usage: string;
  /** [flag with its argument, what it does]. */
  options: readonly (readonly [string, string])[];
  /** Commands to copy, with what they show. */
  examples: readonly (readonly [string, string])[];
}

const CONFIG = ['--config FILE', 'burnrate.yml to read (or BURNRATE_CONFIG; default ./burnrate.yml, else the demo organisation)'] as const;
const DB = ['--db FILE', 'SQLite database (or BURNRATE_DB; default ./data/burnrate.db); DATABASE_URL selects Postgres'] as const;
const JSON_OUT = ['--json', 'print JSON instead of text'] as const;
const TEAM = ['--team T', 'only this team (its id in burnrate.yml)'] as const;
const MONTH = ['--month YYYY-MM', 'a calendar month'] as const;

export const HELP_PAGES = {
  serve: {
    summary: 'Run the bot: scheduled checks, alerts in Slack or Teams, slash commands, health endpoints and /metrics.',
    usage: 'burnrate serve [--config FILE] [--db FILE] [--port N] [--host ADDRESS]',
    options: [
      CONFIG,
      DB,
      ['--port N', 'HTTP port for health, Slack and Teams (or PORT; default 3000)'],
      ['--host ADDRESS', 'address to listen on (or HOST; default 127.0.0.1)'],
    ],
    examples: [
      ['burnrate serve', 'the demo organisation, messages printed to this terminal and the local web console'],
      ['SLACK_BOT_TOKEN=xoxb-… SLACK_APP_TOKEN=xapp-… burnrate serve --config burnrate.yml', 'Slack in Socket Mode'],
    ],
  },
  check: {
    summary: 'Run the budget checks now and print what they find.',
    usage: 'burnrate check [--team T] [--dry-run] [--json]',
    options: [TEAM, ['--dry-run', 'record and queue nothing'], JSON_OUT, CONFIG, DB],
    examples: [['burnrate check --dry-run', 'what the budget check would post, without posting it']],
  },
  spend: {
    summary: 'Spend for a period, by team, service, resource, day, provider or Kubernetes dimension.',
    usage:
      'burnrate spend [--team T] [--period this-month|last-month|YYYY-MM|YYYY-MM-DD..YYYY-MM-DD] [--by team|service|resource|day|provider|namespace|workload|x_<column>] [--basis charge|invoice] [--json] [--chart FILE.png]',
    options: [
      TEAM,
      ['--period P', 'this-month (default), last-month, YYYY-MM or YYYY-MM-DD..YYYY-MM-DD (end exclusive)'],
      ['--by D', 'group by team (default), service (default with --team), resource, day, provider, namespace, workload or x_<column>'],
      ['--basis B', 'charge (default: the day the cost was incurred) or invoice (the billing period it is invoiced in)'],
      JSON_OUT,
      ['--chart FILE.png', 'also draw spend by day as a PNG (with --by day)'],
      CONFIG,
      DB,
    ],
    examples: [
      ['burnrate spend --period last-month', "each team's spend last month"],
      ['burnrate spend --team llm-training --by day --chart spend.png', "one team's spend by day, with a chart"],
    ],
  },
  budgets: {
    summary: "Budgets of burnrate.yml, AWS Budgets and Google Cloud, with each one's spend (as last refreshed).",
    usage: 'burnrate budgets [--source aws|gcp|config] [--team T] [--json]',
    options: [['--source S', 'only budgets from aws, gcp or config'], TEAM, JSON_OUT, CONFIG, DB],
    examples: [['burnrate budgets --source aws', 'the AWS Budgets burnrate read, with their spend']],
  },
  idle: {
    summary: 'Idle GPU instances now, with idle time and cost; records nothing and alerts nobody.',
    usage: 'burnrate idle [--team T] [--json]',
    options: [TEAM, JSON_OUT, CONFIG, DB],
    examples: [['burnrate idle --team ml-research', "one team's idle GPUs"]],
  },
  recommend: {
    summary: 'Right-size and spot recommendations, with their evidence and savings; changes nothing.',
    usage: 'burnrate recommend [--team T] [--json]',
    options: [TEAM, JSON_OUT, CONFIG, DB],
    examples: [['burnrate recommend --json', 'every recommendation with its evidence, as JSON']],
  },
  waste: {
    summary: "How much of each team's GPU spend is waste, by cause, and what to do first.",
    usage: 'burnrate waste [--team T] [--month YYYY-MM | --days N] [--json]',
    options: [TEAM, MONTH, ['--days N', 'the last N whole days instead of a month'], JSON_OUT, CONFIG, DB],
    examples: [['burnrate waste --days 30', 'waste over the last 30 days']],
  },
  anomalies: {
    summary: 'Spend anomalies of the last days: what was spent against what was expected, why it moved, how it was answered.',
    usage: 'burnrate anomalies [--team T] [--days N] [--json]',
    options: [TEAM, ['--days N', 'the last N days (default 30)'], JSON_OUT, CONFIG, DB],
    examples: [['burnrate anomalies --team llm-training --days 14', "one team's anomalies of the last two weeks"]],
  },
  savings: {
    summary: 'What actions taken through burnrate saved, as the bill confirms.',
    usage: 'burnrate savings [--month YYYY-MM] [--json]',
    options: [MONTH, JSON_OUT, CONFIG, DB],
    examples: [['burnrate savings --month 2026-10', 'the savings ledger for October 2026']],
  },
  review: {
    summary: "The monthly cost review now: each team's summary, chart and top cost lines; queued for chat unless --dry-run.",
    usage: 'burnrate review [--team T] [--month YYYY-MM] [--json] [--chart-dir DIR] [--dry-run]',
    options: [
      TEAM,
      ['--month YYYY-MM', 'the month to review (default: last month)'],
      JSON_OUT,
      ['--chart-dir DIR', 'write each chart there as PNG'],
      ['--dry-run', 'record and queue nothing'],
      CONFIG,
      DB,
    ],
    examples: [['burnrate review --dry-run --chart-dir charts', "last month's review, charts written to ./charts"]],
  },
  showback: {
    summary: "Each team's spend for a month with its share of untagged spend.",
    usage: 'burnrate showback [--month YYYY-MM] [--format csv|json]',
    options: [['--month YYYY-MM', 'the month (default: last month)'], ['--format F', 'csv (default) or json'], CONFIG, DB],
    examples: [['burnrate showback --month 2026-10 > showback.csv', 'October 2026 as a CSV file']],
  },
  audit: {
    summary: 'The audit log of actions taken from chat, oldest first.',
    usage: 'burnrate audit [--since ISO] [--json]',
    options: [['--since ISO', 'only entries from this date or time on'], JSON_OUT, CONFIG, DB],
    examples: [['burnrate audit --since 2026-11-01', 'what was done from chat since 1 November']],
  },
  status: {
    summary: "Alert delivery (queued, failing, failed) and each source's freshness.",
    usage: 'burnrate status [--json]',
    options: [JSON_OUT, CONFIG, DB],
    examples: [['burnrate status', 'whether alerts are leaving and the data is fresh']],
  },
  outbox: {
    summary: 'Queue failed alerts again once their cause is fixed.',
    usage: 'burnrate outbox retry [--id N ...] [--json]',
    options: [['--id N', 'only this outbox item (repeat for more; default: every failed item)'], JSON_OUT, CONFIG, DB],
    examples: [['burnrate outbox retry --id 12', 'send failed item 12 again (burnrate status lists them)']],
  },
  import: {
    summary: 'Import FOCUS billing exports (CSV, CSV.gz or Parquet), all files or none.',
    usage: 'burnrate import focus <file...|*-Manifest.json> [--replace-period] [--source ID] [--json]   (CSV, CSV.gz or Parquet)',
    options: [
      ['--replace-period', 'replace the whole billing periods the files cover (a complete, corrected export)'],
      ['--source ID', 'the focus source of burnrate.yml the files belong to (default: focus)'],
      JSON_OUT,
      CONFIG,
      DB,
    ],
    examples: [['burnrate import focus exports/2026-10/*.parquet', "October's export, each file a part of it"]],
  },
  config: {
    summary: 'Check burnrate.yml, or print its JSON Schema.',
    usage: 'burnrate config validate [--config FILE] | burnrate config schema',
    options: [CONFIG],
    examples: [
      ['burnrate config validate --config burnrate.yml', 'say what is wrong with the file, or that it is valid'],
      ['burnrate config schema > burnrate.schema.json', 'the schema, for an editor'],
    ],
  },
  prices: {
    summary: 'Reprice Google Cloud GPU machines of the price catalog from the Cloud Catalog API.',
    usage: 'burnrate prices refresh --provider gcp [--catalog FILE] [--dry-run] [--json]',
    options: [
      ['--provider gcp', 'the provider to reprice (only gcp can be refreshed live)'],
      ['--catalog FILE', 'the catalog file to rewrite (default: src/catalog/gpu-prices.json)'],
      ['--dry-run', 'show the changes, write nothing'],
      JSON_OUT,
      CONFIG,
    ],
    examples: [['burnrate prices refresh --provider gcp --dry-run', 'what the Cloud Catalog would change']],
  },
  mcp: {
    summary:
      "Answer an AI assistant over MCP (stdio) as one chat user: the CLI's figures for that user's teams, and proposals people approve in chat; and issue, list and revoke its tokens.",
    usage:
      'burnrate mcp --user USER_ID [--config FILE] [--db FILE] | burnrate mcp token create --user USER_ID [--name NAME] [--expires 90d|never] [--json] | burnrate mcp token list [--json] | burnrate mcp token revoke TOKEN_ID',
    options: [
      [
        '--user USER_ID',
        'the chat user the assistant (or the token) acts as (or BURNRATE_MCP_USER; BURNRATE_MCP_TOKEN: an issued token instead)',
      ],
      ['--name NAME', 'token create: what the token is for, to tell it apart in the list'],
      ['--expires 90d|never', 'token create: how many days it is valid (1 to 3650; 90d by default), or never'],
      ['--json', 'token create and list: as JSON'],
      CONFIG,
      DB,
    ],
    examples: [
      ['burnrate mcp --user U0DEMOCAROL', "an MCP server on stdin/stdout for Carol's assistant (Claude Desktop, Claude Code, VS Code)"],
      [
        'burnrate mcp token create --user U0DEMOCAROL --name laptop',
        'a token for Carol, printed once; valid 90 days on /mcp and as BURNRATE_MCP_TOKEN',
      ],
      ['burnrate mcp token revoke mt_4f2a9c1b7d3e', 'refused from the next request on, by every replica'],
    ],
  },
  demo: {
    summary: 'Load the demo organisation and print the alerts it would post.',
    usage: 'burnrate demo [--db FILE]',
    options: [DB],
    examples: [['burnrate demo && burnrate spend', "the demo, then its teams' spend this month"]],
  },
} as const satisfies Record<string, HelpPage>;

export type VerbName = keyof typeof HELP_PAGES;

/** The page as printed: summary, usage, options in a column, examples, exit codes. */
export function formatHelpPage(page: HelpPage): string {
  const width = Math.max(...page.options.map(([flag]) => flag.length));
  const options = page.options.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`);
  const examples = page.examples.flatMap(([command, text]) => [`  ${command}`, `      ${text}`]);
  return [
    page.summary,
    '',
    `Usage: ${page.usage}`,
    '',
    'Options:',
    ...options,
    `  ${'-h, --help'.padEnd(width)}  show this help`,
    '',
    page.examples.length > 1 ? 'Examples:' : 'Example:',
    ...examples,
    '',
    'Exit codes: 0 ok, 1 runtime failure, 2 usage or input error.',
    '',
  ].join('\n');
}

/** `burnrate --help`: every verb with its one line, read from the same pages as `<verb> --help`. */
export function formatOverview(): string {
  const verbs = Object.entries(HELP_PAGES) as [VerbName, HelpPage][];
  const width = Math.max(...verbs.map(([verb]) => verb.length));
  return [
    'burnrate — cloud and GPU spend alerts for ML teams, in Slack and Teams',
    '',
    'Usage: burnrate <command> [options]    (burnrate --version: the version)',
    '       burnrate <command> --help         (or burnrate help <command>: its options and an example)',
    '',
    ...verbs.map(([verb, page]) => `  ${verb.padEnd(width)}  ${page.summary}`),
    '',
    'Options for all data commands: --config FILE (or BURNRATE_CONFIG), --db FILE (or BURNRATE_DB)',
    'Exit codes: 0 ok, 1 runtime failure, 2 usage or input error.',
    '',
  ].join('\n');
}
