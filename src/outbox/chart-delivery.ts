import type { TeamConfig } from '../config/schema.js';
import type { Deps } from '../deps.js';
import type { ChatPort } from '../ports/chat-port.js';

/** A chart as base64 PNGs: full size where files go, compact where it travels inside the message. */
export interface ChartPngs {
  file: string;
  /** Null when no platform of the team takes inline images. */
  inline: Buffer | null;
}

/** One small rendering for every platform (it fits inside a message and is sharp enough as a file). */
export function compactPngs(png: Buffer): ChartPngs {
  return { file: png.toString('base64'), inline: png };
}

/**
 * The chart for one platform: the full PNG where files go; the compact one where it fits inside
 * the message; none otherwise (every figure it draws is in the message's text as well).
 */
export function chartFor(deps: Pick<Deps, 'log'>, port: ChatPort, team: TeamConfig, pngs: ChartPngs): string | null {
  if (port.capabilities.files) return pngs.file;
  const limit = port.capabilities.inlineImageBytes;
  if (limit === null || !pngs.inline) return null;
  if (pngs.inline.length > limit) {
    deps.log.warn(
      { team: team.id, platform: port.platform, bytes: pngs.inline.length, limit },
      'chart too large to travel inside a message; the thread goes without it',
    );
    return null;
  }
  return pngs.inline.toString('base64');
}
