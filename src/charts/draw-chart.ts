import type { TopLevelSpec } from 'vega-lite';
import { encodeIndexedPng } from './indexed-png.js';

export interface RenderedChart {
  png: Buffer;
  width: number;
  height: number;
}

export const CHART_FONT = 'DejaVu Sans';

/**
 * A vega-lite chart as a PNG, without a browser: vega-lite compiles the spec, vega renders SVG
 * headlessly, resvg rasterises it. The same spec gives the same bytes, on whichever thread it is drawn.
 *   - full: at twice its size;
 *   - compact, for platforms that carry images inside the message (a Teams card, whose whole
 *     payload stays under about 28 KB): at its natural size, drawn without anti-aliased bars (only
 *     the text keeps its smooth edges), so it holds a few dozen colours, and stored as an
 *     indexed-colour PNG: a quarter of the pixels at a byte each.
 */
export async function drawChart(spec: TopLevelSpec, compact: boolean): Promise<RenderedChart> {
  const { Resvg, svg } = await chartSvg(spec);
  if (!compact) {
    const image = new Resvg(svg, {
      background: '#ffffff',
      fitTo: { mode: 'zoom', value: 2 },
      font: { loadSystemFonts: true, defaultFontFamily: CHART_FONT },
    }).render();
    return { png: image.asPng(), width: image.width, height: image.height };
  }
  // 1: crispEdges for the bars (flat colours compress well), optimizeLegibility for the text.
  const image = new Resvg(svg, {
    background: '#ffffff',
    shapeRendering: 1,
    textRendering: 1,
    fitTo: { mode: 'zoom', value: 1 },
    font: { loadSystemFonts: true, defaultFontFamily: CHART_FONT },
  }).render();
  const png = encodeIndexedPng(image.pixels, image.width, image.height) ?? image.asPng();
  return { png, width: image.width, height: image.height };
}

async function chartSvg(spec: TopLevelSpec) {
  // Loaded on first use: every CLI command and serve's start would otherwise pay for them.
  const [{ Resvg }, vega, { compile }] = await Promise.all([import('@resvg/resvg-js'), import('vega'), import('vega-lite')]);
  const svg = await new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' }).toSVG();
  return { Resvg, svg };
}
