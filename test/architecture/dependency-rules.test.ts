import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The layering is only as real as the lint that enforces it. These probes lay out a miniature of
// burnrate's folders in a scratch directory (never in the repository, where others lint at the same
// time), each probe one import a rule of `.dependency-cruiser.cjs` must refuse, and run the same
// depcruise command `npm run lint` runs over it.

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise');

/** Files every probe may import: faces, registries and ordinary modules of each plugin axis. */
const STUBS = [
  'src/chat/chat-platform.ts',
  'src/chat/slack/index.ts',
  'src/chat/slack/slack-chat.ts',
  'src/chat/teams/index.ts',
  'src/chat/teams/teams-chat.ts',
  'src/providers/aws/index.ts',
  'src/providers/aws/ec2-stop.ts',
  'src/providers/gcp/index.ts',
  'src/providers/gcp/compute-stop.ts',
  'src/providers/focus/focus-sql.ts',
  'src/providers/retry.ts',
  'src/checks/budget/index.ts',
  'src/checks/budget/definition.ts',
  'src/checks/budget/budget-rules.ts',
  'src/checks/idle/index.ts',
  'src/checks/idle/idle-rules.ts',
  'src/store/store.ts',
  'src/domain/money.ts',
];

/** Imports the rules allow: each registry lists its faces, providers share the bill format and root helpers, imports point down. */
const ALLOWED = {
  'src/chat/platforms.ts': ['./slack/index.js', './teams/index.js'],
  'src/providers/registry.ts': ['./aws/index.js', './gcp/index.js'],
  'src/checks/index.ts': ['./budget/index.js', './idle/index.js'],
  'src/providers/aws/spend.ts': ['../focus/focus-sql.js', '../retry.js', '../../store/store.js'],
  'src/checks/idle/definition.ts': ['./idle-rules.js', '../budget/budget-rules.js', '../../store/store.js'],
  'src/chat/slack/slack-app.ts': ['./slack-chat.js', '../chat-platform.js', '../../store/store.js'],
};

/** Each probe: one import, and the rule that must refuse it. */
const PROBES = [
  { file: 'src/store/probe-up.ts', imports: '../chat/chat-platform.js', rule: 'layer-order-ports-and-store' },
  { file: 'src/domain/probe-up.ts', imports: '../store/store.js', rule: 'layer-order-domain' },
  { file: 'src/checks/budget/probe-io.ts', imports: '../../store/store.js', rule: 'checks-are-pure' },
  { file: 'src/providers/aws/probe-other.ts', imports: '../gcp/compute-stop.js', rule: 'provider-imports-no-other-provider' },
  { file: 'src/providers/probe-face.ts', imports: './aws/index.js', rule: 'only-the-registry-imports-a-provider' },
  { file: 'src/chat/slack/probe-other.ts', imports: '../teams/teams-chat.js', rule: 'chat-platform-imports-no-other-platform' },
  { file: 'src/chat/probe-face.ts', imports: './slack/index.js', rule: 'only-the-registry-imports-a-chat-platform' },
  { file: 'src/checks/idle/definition/probe-other.ts', imports: '../../budget/definition.js', rule: 'check-imports-no-other-check' },
  { file: 'src/checks/probe-face.ts', imports: './budget/index.js', rule: 'only-the-registry-imports-a-check' },
];

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** A module that imports each of `imports`, so that it is a real dependency and not dead code. */
function moduleText(imports: readonly string[]): string {
  const lines = imports.map((target, i) => `import * as m${i} from '${target}';`);
  return `${lines.join('\n')}\nexport const used = [${imports.map((_, i) => `m${i}`).join(', ')}];\n`;
}

function write(dir: string, file: string, text: string): void {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), text);
}

/** depcruise over the scratch tree with the repository's rules, as `npm run lint` runs it; the violations it reports. */
function cruise(dir: string): Promise<Violation[]> {
  return new Promise((resolve, reject) => {
    execFile(
      DEPCRUISE,
      ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
      { cwd: dir, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => {
        // depcruise exits non-zero when it finds errors; its JSON report is on stdout either way.
        try {
          resolve((JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations);
        } catch {
          reject(error ?? new Error(`depcruise printed no report: ${stdout.slice(0, 500)}`));
        }
      },
    );
  });
}

describe('the dependency rules `npm run lint` enforces', () => {
  let dir: string;
  let violations: Violation[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'burnrate-layers-'));
    copyFileSync(join(ROOT, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
    copyFileSync(join(ROOT, 'tsconfig.json'), join(dir, 'tsconfig.json'));
    for (const file of STUBS) write(dir, file, 'export const stub = 1;\n');
    for (const [file, imports] of Object.entries(ALLOWED)) write(dir, file, moduleText(imports));
    for (const probe of PROBES) write(dir, probe.file, moduleText([probe.imports]));
    violations = await cruise(dir);
  }, 60_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each(PROBES)('refuses $file importing $imports ($rule)', (probe) => {
    const found = violations.filter((v) => v.from === probe.file);
    expect(found.map((v) => v.rule.name)).toContain(probe.rule);
  });

  it('allows what the layout means: registries listing faces, providers sharing the bill format and root helpers, imports down', () => {
    const probeFiles = new Set(PROBES.map((probe) => probe.file));
    expect(violations.filter((v) => !probeFiles.has(v.from))).toEqual([]);
  });
});
