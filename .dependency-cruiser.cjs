/**
 * The layer rules of burnrate's layout (README, "Layout"); `npm test` fails on any violation.
 * Imports point down the flow of data: sources -> store -> checks -> templates -> chat, and
 * inbound chat -> dispatcher -> commands/actions -> ports -> cloud adapters.
 */
const CLOUD_SDKS = '(@aws-sdk|@google-cloud|@kubernetes|@azure)/';
/** The product's code; benchmarks and scripts may drive SDKs directly (bare Bolt is the Slack peer). */
const PRODUCT = '^(src|templates|commands)/';

module.exports = {
  forbidden: [
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
      comment: 'checks/ are pure rules over snapshots: they import only checks/ and domain/.',
      from: { path: '^src/checks/' },
      to: { path: '^(src|templates|commands)/', pathNot: '^src/(domain|checks)/' },
    },
    {
      name: 'templates-know-no-transport',
      severity: 'error',
      comment: 'Templates render data; they never reach chat platforms, the store or cloud adapters.',
      from: { path: '^templates/' },
      to: { path: '^src/(chat|store|cloud)/' },
    },
    {
      name: 'cloud-sdks-only-in-sources-and-cloud',
      severity: 'error',
      comment: 'Only sources/ (to read) and cloud/ (to act) talk to cloud SDKs.',
      from: { path: PRODUCT, pathNot: '^src/(sources|cloud)/' },
      to: { path: `node_modules/${CLOUD_SDKS}` },
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
      to: { path: 'node_modules/(botbuilder|botframework-)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
