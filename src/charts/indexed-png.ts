import { deflateSync } from 'node:zlib';

/** PNG's own file signature. */
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A palette holds at most 256 colours (8-bit indices). */
const MAX_COLOURS = 256;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * Opaque RGBA pixels as an indexed-colour PNG (colour type 3), or null when they hold more than
 * 256 colours. A chart drawn without anti-aliasing has a dozen colours: one byte per pixel instead
 * of four compresses to about half of what resvg's RGBA PNG weighs, which is what lets the chart
 * fit inside a Teams card. Alpha is dropped: the chart is drawn on an opaque white background.
 */
export function encodeIndexedPng(rgba: Buffer, width: number, height: number): Buffer | null {
  const palette = new Map<number, number>();
  // Each row starts with its filter byte (0: none); the indices follow.
  const raw = Buffer.alloc(height * (width + 1));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4;
      const rgb = (rgba[at]! << 16) | (rgba[at + 1]! << 8) | rgba[at + 2]!;
      let index = palette.get(rgb);
      if (index === undefined) {
        if (palette.size === MAX_COLOURS) return null;
        index = palette.size;
        palette.set(rgb, index);
      }
      raw[y * (width + 1) + 1 + x] = index;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 3; // indexed colour
  const plte = Buffer.alloc(palette.size * 3);
  for (const [rgb, index] of palette) plte.writeUIntBE(rgb, index * 3, 3);
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('PLTE', plte),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
