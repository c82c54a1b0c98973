import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { encodeIndexedPng } from '../../src/charts/indexed-png.js';

/** The pixels a real PNG decoder (resvg's, through an SVG image at 1:1) reads from `png`. */
function decode(png: Buffer, width: number, height: number): Buffer {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><image width="${width}" height="${height}" href="data:image/png;base64,${png.toString('base64')}"/></svg>`;
  return new Resvg(svg, { shapeRendering: 1, imageRendering: 1 }).render().pixels;
}

/** Opaque RGBA stripes of `colours` distinct colours. */
function stripes(width: number, height: number, colours: number): Buffer {
  const rgba = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const c = (x + y * width) % colours;
      rgba.set([(c * 37) & 0xff, c >> 8, c & 0xff, 0xff], (y * width + x) * 4);
    }
  }
  return rgba;
}

describe('indexed-colour PNG encoding', () => {
  it('writes a palette PNG that a real decoder reads back pixel for pixel', () => {
    const rgba = stripes(40, 12, 23);
    const png = encodeIndexedPng(rgba, 40, 12)!;
    expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20), png[24], png[25]]).toEqual([40, 12, 8, 3]);
    expect(png.subarray(37, 41).toString('ascii')).toBe('PLTE');
    expect(png.readUInt32BE(33)).toBe(23 * 3);
    expect(decode(png, 40, 12).equals(rgba)).toBe(true);
  });

  it('gives up (null) on more than 256 colours, so the caller keeps the RGBA PNG', () => {
    expect(encodeIndexedPng(stripes(20, 20, 257), 20, 20)).toBeNull();
    expect(encodeIndexedPng(stripes(20, 20, 256), 20, 20)).not.toBeNull();
  });
});
