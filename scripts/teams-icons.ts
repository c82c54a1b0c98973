/**
 * Renders the Teams app icons from their SVG sources in teams/: color.png (192x192, full colour)
 * and outline.png (32x32, white on transparent), as the app manifest asks.
 *
 *   npm run icons:teams
 *
 * resvg renders deterministically, so a test renders them again and compares with the committed files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';

export const TEAMS_ICONS = [
  { name: 'color', size: 192 },
  { name: 'outline', size: 32 },
] as const;

/** An icon rendered from teams/<name>.svg at its manifest size: PNG bytes and raw RGBA pixels. */
export function renderTeamsIcon(
  teamsDir: string,
  icon: (typeof TEAMS_ICONS)[number],
): { png: Buffer; pixels: Buffer; width: number; height: number } {
  const svg = readFileSync(join(teamsDir, `${icon.name}.svg`), 'utf8');
  const rendered = new Resvg(svg, { fitTo: { mode: 'width', value: icon.size }, background: 'rgba(0,0,0,0)' }).render();
  return { png: rendered.asPng(), pixels: rendered.pixels, width: rendered.width, height: rendered.height };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const teamsDir = fileURLToPath(new URL('../../teams/', import.meta.url));
  for (const icon of TEAMS_ICONS) {
    const { png, width, height } = renderTeamsIcon(teamsDir, icon);
    writeFileSync(join(teamsDir, `${icon.name}.png`), png);
    process.stdout.write(`teams/${icon.name}.png ${width}x${height}\n`);
  }
}
