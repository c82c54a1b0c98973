import { readFileSync } from 'node:fs';

/** The PromQL of every target of the sample Grafana panels in docs/ (the team panel's `$team` left in). */
export function grafanaPanelQueries(): string[] {
  return ['grafana-panel.json', 'grafana-health-panel.json'].flatMap((file) =>
    (JSON.parse(readFileSync(new URL(`../../docs/${file}`, import.meta.url), 'utf8')) as { targets: { expr: string }[] }).targets.map(
      (t) => t.expr,
    ),
  );
}
