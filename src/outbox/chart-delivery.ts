import type { TeamConfig } from '../config/schema.js';
import type { Deps } from '../deps.js';
import type { ChatPort } from '../ports/chat-port.js';
import type { PlotBlock } from '../../templates/message.js';

/**
 * A chart, drawn once for every platform: base64 PNGs (full size where files go, compact where it
 * travels inside the message) and its numbers for platforms that draw charts themselves, both
 * from the same input (src/charts/), so every platform shows the same figures.
 */
export interface ChartPngs {
  file: string;
  /** Null when no platform of the team takes inline images. */
  inline: Buffer | null;
  /** The chart as numbers; null where none was built (the platform then gets the picture). */
  plot?: PlotBlock | null;
  /** A second chart as numbers, for platforms that draw their own only (a budget's gauge). */
  extra?: PlotBlock | null;
}

/** One small rendering for every platform (it fits inside a message and is sharp enough as a file). */
export function compactPngs(png: Buffer, plot: PlotBlock | null = null, extra: PlotBlock | null = null): ChartPngs {
  return { file: png.toString('base64'), inline: png, plot, extra };
}

/** What one platform is sent of a chart: its numbers to draw, a PNG, or both (the PNG as the fallback). */
export interface ChartOnPlatform {
  png: string | null;
  plot: PlotBlock | null;
  /** Drawn after the chart where the platform draws charts; never a picture. */
  extra?: PlotBlock | null;
}

/**
 * The chart for one platform: on a platform that draws charts, the numbers, with the compact PNG
 * as the card's fallback where pictures travel inside the message; elsewhere the full PNG where
 * files go, the compact one where it fits inside the message; none otherwise (every figure it
 * draws is in the message's text as well).
 */
export function chartFor(deps: Pick<Deps, 'log'>, port: ChatPort, team: TeamConfig, pngs: ChartPngs): ChartOnPlatform | null {
  const plot = port.capabilities.nativeCharts && pngs.plot ? pngs.plot : null;
  const png = plot && port.capabilities.files ? null : pictureFor(deps, port, team, pngs);
  return plot || png ? { png, plot, extra: plot ? (pngs.extra ?? null) : null } : null;
}

function pictureFor(deps: Pick<Deps, 'log'>, port: ChatPort, team: TeamConfig, pngs: ChartPngs): string | null {
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
