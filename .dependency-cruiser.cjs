/**
 * The layer rules of burnrate's layout (ARCHITECTURE.md, "Layers"); `npm test` fails on any violation.
 * Imports point down LAYERS, one row after another; within a row imports are free (cycles aside).
 */
const CLOUD_SDKS = '(@aws-sdk|@smithy|@google-cloud|@kubernetes|@azure|google-auth-library)/';
/** The product's code; benchmarks and scripts may drive SDKs directly (bare Bolt is the Slack peer). */
const PRODUCT = '^(src|templates|commands)/';

/**
 * The files of checks/ that run a check rather than state its rules: the registry (checks/index.ts),
 * the plugin's types (checks/definition.ts), each check's face (checks/<name>/index.ts) and its
 * definition (checks/<name>/definition.ts and checks/<name>/definition/). Everything else in
 * checks/ is pure rules.
 */
const CHECK_IO = '^src/checks/((index|definition)\\.ts$|[^/]+/(index\\.ts$|definition(\\.ts$|/)))';

/**
 * The layer order, top to bottom, as ARCHITECTURE.md draws it. bench/ and scripts/ drive the product
 * from outside and sit above every row.
 */
const LAYERS = [
  {
    name: 'entry points',
    path: '^src/((main|runtime|answer-worker|scheduler|process-guard|log)\\.ts$|cli/|mcp/|permissions/)',
  },
  { name: 'chat platforms', path: '^src/chat/' },
  // Below the platforms: they hand what they receive to the one dispatcher, which knows none of them.
  { name: 'inbound', path: '^src/inbound/' },
  { name: 'http', path: '^src/http/' },
  // Commands, buttons and jobs, one row each: a command may run a button's operation or a job, a
  // button a job (a budget change re-runs the budget check); what both need sits below them.
  { name: 'commands', path: '^commands/' },
  { name: 'actions', path: '^src/actions/' },
  { name: 'jobs', path: '^src/jobs/' },
  // What a job is made of: the checks' definitions and registry, the operations every button,
  // command and automatic stop runs through, the outbox and the read models.
  { name: 'definitions, operations, outbox and snapshots', path: `^src/(snapshots|outbox|operations)/|${CHECK_IO}` },
  { name: 'providers', path: '^src/providers/' },
  { name: 'ports and store', path: '^src/((ports|store|catalog)/|deps\\.ts$)' },
  { name: 'templates', path: '^(templates|src/charts)/' },
  { name: 'config', path: '^src/config/' },
  { name: 'checks', path: '^src/checks/', pathNot: CHECK_IO },
  { name: 'domain', path: '^src/domain/' },
];

/**
 * The few imports up a row that are right for now, each with its reason. Keep this list short.
 */
const UP_IMPORTS_ALLOWED = [
  {
    row: 'config',
    from: '^src/config/load-config\\.ts$',
    to: '^src/providers/demo/demo-config\\.ts$',
    why: 'with no burnrate.yml the embedded demo organisation is the configuration, so a first run needs no setup',
  },
];

const above = (index) =>
  LAYERS.slice(0, index + 1)
    .map((row) => `(${row.path})`)
    .join('|');

/** One rule per row: nothing in it imports a row above it. */
const layerOrder = LAYERS.slice(1).flatMap((layer, index) => {
  const comment = `${layer.name} imports only rows below it (ARCHITECTURE.md, "Layers"): move the type or helper it needs down, or the importer up.`;
  const name = `layer-order-${layer.name.replace(/[ ,]+/g, '-')}`;
  const allowed = UP_IMPORTS_ALLOWED.filter((a) => a.row === layer.name);
  return [
    {
      name,
      severity: 'error',
      comment,
      from: { path: layer.path, pathNot: [...(layer.pathNot ? [layer.pathNot] : []), ...allowed.map((a) => a.from)] },
      to: { path: above(index) },
    },
    ...allowed.map((a) => ({ name, severity: 'error', comment, from: { path: a.from }, to: { path: above(index), pathNot: a.to } })),
  ];
});

/**
 * One folder per provider under providers/ (AWS's services, athena/, cloudwatch/, ec2/, sit inside
 * providers/aws/). Helpers for every provider sit at the folder's root (providers/retry.ts), outside any provider.
 */
const PROVIDER_ROOTS = '^src/providers/';
/**
 * FOCUS is the bill format every spend source is turned into, not a cloud: the Athena export
 * converts CUR with the same SQL a FOCUS file import runs. Any provider may import focus/; focus/
 * itself imports no provider.
 */
const SHARED_FORMAT = '(?:focus)';

module.exports = {
  forbidden: [
    ...layerOrder,
    {
      name: 'provider-imports-no-other-provider',
      severity: 'error',
      comment: 'A provider never imports another provider: share through a helper at the folder root or a port.',
      from: { path: `${PROVIDER_ROOTS}([^/]+)/` },
      to: { path: `${PROVIDER_ROOTS}[^/]+/`, pathNot: `${PROVIDER_ROOTS}(?:${SHARED_FORMAT}|$1)/` },
    },
    {
      name: 'only-the-registry-imports-a-provider',
      severity: 'error',
      comment:
        "A provider's face (providers/<name>/index.ts) is composed in providers/registry.ts alone: reach a provider through the registry's functions, or a port.",
      from: { path: PRODUCT, pathNot: '^src/providers/registry\\.ts$' },
      to: { path: `${PROVIDER_ROOTS}[^/]+/index\\.ts$` },
    },
    {
      name: 'chat-platform-imports-no-other-platform',
      severity: 'error',
      comment: 'A chat platform never imports another: what two platforms share belongs in chat/ itself, inbound/ or a port.',
      from: { path: '^src/chat/([^/]+)/' },
      to: { path: '^src/chat/[^/]+/', pathNot: '^src/chat/$1/' },
    },
    {
      name: 'only-the-registry-imports-a-chat-platform',
      severity: 'error',
      comment:
        "A chat platform's face (chat/<platform>/index.ts) is listed in chat/platforms.ts alone: runtime and serve read the registry.",
      from: { path: PRODUCT, pathNot: '^src/chat/platforms\\.ts$' },
      to: { path: '^src/chat/[^/]+/index\\.ts$' },
    },
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import cycle: one of the two sits in the wrong layer.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-is-the-bottom',
      severity: 'error',
      comment: 'domain/ holds plain types and value helpers: it imports nothing of the project but domain/.',
      from: { path: '^src/domain/' },
      to: { path: '^(src|templates|commands)/', pathNot: '^src/domain/' },
    },
    {
      name: 'checks-are-pure',
      severity: 'error',
      comment: "checks/ rules are pure, over snapshots: they import only checks/ rules and domain/ (a run's I/O is in its definition).",
      from: { path: '^src/checks/', pathNot: CHECK_IO },
      to: { path: '^(src|templates|commands)/', pathNot: '^src/(domain|checks)/' },
    },
    {
      name: 'only-the-registry-imports-a-check',
      severity: 'error',
      comment: "A check's face (checks/<name>/index.ts) is listed in checks/index.ts alone: the job table reads the registry.",
      from: { path: PRODUCT, pathNot: '^src/checks/index\\.ts$' },
      to: { path: '^src/checks/[^/]+/index\\.ts$' },
    },
    {
      name: 'check-imports-no-other-check',
      severity: 'error',
      comment:
        "A check's definition never imports another check's: what two checks share belongs in checks/ rules, a read model or the outbox.",
      from: { path: '^src/checks/([^/]+)/(index\\.ts$|definition)' },
      to: { path: '^src/checks/[^/]+/(index\\.ts$|definition)', pathNot: '^src/checks/$1/' },
    },
    {
      name: 'templates-know-no-transport',
      severity: 'error',
      comment: 'Templates render data; they never reach chat platforms, the store or cloud adapters.',
      from: { path: '^templates/' },
      to: { path: '^src/(chat|store|providers)/' },
    },
    {
      name: 'cloud-sdks-only-in-providers',
      severity: 'error',
      comment: 'Only providers/ (to read and to act) talk to cloud SDKs.',
      from: { path: PRODUCT, pathNot: '^src/providers/' },
      to: { path: `node_modules/${CLOUD_SDKS}`, pathNot: 'node_modules/@azure/identity/' },
    },
    {
      name: 'azure-identity-only-in-providers-and-chat-teams',
      severity: 'error',
      comment: "Entra sign-in: the providers' Azure clients, and the Teams bot (Bot Connector and Microsoft Graph tokens).",
      from: { path: PRODUCT, pathNot: '^src/(providers|chat/teams)/' },
      to: { path: 'node_modules/@azure/identity/' },
    },
    {
      name: 'azure-resource-sdks-only-in-providers-azure',
      severity: 'error',
      comment: 'Azure Resource Manager and Azure Monitor clients: the Azure provider reads and acts with them, nothing else does.',
      from: { path: PRODUCT, pathNot: '^src/providers/azure/' },
      to: { path: 'node_modules/@azure/(arm-|monitor-)' },
    },
    {
      name: 'sqlite-driver-only-in-store-sqlite',
      severity: 'error',
      comment: 'The SQLite store lives in store/sqlite/; store/ itself holds only the dialect-neutral contracts.',
      from: { path: PRODUCT, pathNot: '^src/store/sqlite/' },
      to: { path: 'node_modules/better-sqlite3/' },
    },
    {
      name: 'postgres-driver-only-in-store-postgres',
      severity: 'error',
      comment: 'The Postgres store lives in store/postgres/, beside store/sqlite/.',
      from: { path: PRODUCT, pathNot: '^src/store/postgres/' },
      to: { path: 'node_modules/pg/' },
    },
    {
      name: 'slack-sdk-only-in-chat-slack',
      severity: 'error',
      from: { path: PRODUCT, pathNot: '^src/chat/slack/' },
      to: { path: 'node_modules/@slack/' },
    },
    {
      name: 'teams-sdk-only-in-chat-teams',
      severity: 'error',
      from: { path: PRODUCT, pathNot: '^src/chat/teams/' },
      to: { path: 'node_modules/@microsoft/agents-' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // swc reads TypeScript here: dependency-cruiser cannot use TypeScript 7.0's compiler, and swc
    // sees type-only imports and re-exports (`export type … from`) as dependencies too.
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
