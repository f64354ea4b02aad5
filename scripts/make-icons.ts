import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

// `node scripts/make-icons.ts`: draws the app icons and the install screenshots into public/.
// Node built-ins only; the outputs are committed, so this runs only when the artwork changes.

type Rgba = [number, number, number, number];
/** A shape: the colour it paints at a point (x, y in 0..1 of the canvas), or null where it is absent. */
type Layer = (x: number, y: number) => Rgba | null;

const OUT = 'public';
const NAVY: Rgba = [30, 58, 138, 255]; // #1e3a8a, the theme colour
const BLUE: Rgba = [37, 99, 235, 255]; // #2563eb
const WHITE: Rgba = [255, 255, 255, 255];
const AMBER: Rgba = [251, 191, 36, 255];

// --- PNG encoding -------------------------------------------------------------------------------

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** An 8-bit RGBA PNG (colour type 6), every row with filter 0. */
function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 6;
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0;
    Buffer.from(rgba.buffer, rgba.byteOffset + y * width * 4, width * 4).copy(raw, y * (width * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', new Uint8Array()),
  ]);
}

// --- Drawing ------------------------------------------------------------------------------------

/** Paints the layers bottom to top with `samples`² samples per pixel (anti-aliased edges). */
function render(width: number, height: number, layers: Layer[], samples = 4): Uint8Array {
  const out = new Uint8Array(width * height * 4);
  for (let py = 0; py < height; py++) {
    for (let px = 0; px < width; px++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = (px + (sx + 0.5) / samples) / width;
          const y = (py + (sy + 0.5) / samples) / height;
          let colour: Rgba = [0, 0, 0, 0];
          for (const layer of layers) {
            const painted = layer(x, y);
            if (painted) colour = over(painted, colour);
          }
          // Premultiplied sums, so transparent samples do not darken the edges.
          r += (colour[0] * colour[3]) / 255;
          g += (colour[1] * colour[3]) / 255;
          b += (colour[2] * colour[3]) / 255;
          a += colour[3];
        }
      }
      const i = (py * width + px) * 4;
      const n = samples * samples;
      out[i + 3] = Math.round(a / n);
      const alpha = a / n / 255;
      out[i] = alpha ? Math.round(r / n / alpha) : 0;
      out[i + 1] = alpha ? Math.round(g / n / alpha) : 0;
      out[i + 2] = alpha ? Math.round(b / n / alpha) : 0;
    }
  }
  return out;
}

function over(top: Rgba, bottom: Rgba): Rgba {
  const ta = top[3] / 255;
  const ba = bottom[3] / 255;
  const a = ta + ba * (1 - ta);
  if (a === 0) return [0, 0, 0, 0];
  const mix = (t: number, b: number) => Math.round((t * ta + b * ba * (1 - ta)) / a);
  return [mix(top[0], bottom[0]), mix(top[1], bottom[1]), mix(top[2], bottom[2]), Math.round(a * 255)];
}

const roundedRect =
  (x0: number, y0: number, x1: number, y1: number, radius: number, colour: Rgba, aspect = 1): Layer =>
  (x, y) => {
    if (x < x0 || x > x1 || y < y0 || y > y1) return null;
    const rx = radius / aspect;
    const cx = Math.min(Math.max(x, x0 + rx), x1 - rx);
    const cy = Math.min(Math.max(y, y0 + radius), y1 - radius);
    const dx = (x - cx) * aspect;
    const dy = y - cy;
    return dx * dx + dy * dy <= radius * radius ? colour : null;
  };

const verticalGradient =
  (top: Rgba, bottom: Rgba, inside: (x: number, y: number) => boolean): Layer =>
  (x, y) => {
    if (!inside(x, y)) return null;
    return [0, 1, 2, 3].map((i) => Math.round(top[i]! + (bottom[i]! - top[i]!) * y)) as Rgba;
  };

const ring =
  (cx: number, cy: number, radius: number, width: number, colour: Rgba, onlyAbove: number): Layer =>
  (x, y) => {
    if (y > onlyAbove) return null;
    const d = Math.hypot(x - cx, y - cy);
    return Math.abs(d - radius) <= width / 2 ? colour : null;
  };

function polygon(points: [number, number][], colour: Rgba): Layer {
  return (x, y) => {
    let inside = false;
    for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
      const [xi, yi] = points[i]!;
      const [xj, yj] = points[j]!;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
    return inside ? colour : null;
  };
}

/** The mark: a white shopping bag with an amber bolt (fast delivery), centred, inside the maskable safe zone. */
function glyph(scale = 1): Layer[] {
  const s = (v: number) => 0.5 + (v - 0.5) * scale;
  const pts = (list: [number, number][]) => list.map(([x, y]) => [s(x), s(y)] as [number, number]);
  return [
    ring(s(0.5), s(0.37), 0.105 * scale, 0.04 * scale, WHITE, s(0.4)),
    roundedRect(s(0.28), s(0.36), s(0.72), s(0.78), 0.05 * scale, WHITE),
    polygon(
      pts([
        [0.53, 0.43],
        [0.42, 0.6],
        [0.49, 0.6],
        [0.46, 0.72],
        [0.58, 0.54],
        [0.51, 0.54],
      ]),
      AMBER,
    ),
  ];
}

const fullBleed = verticalGradient(BLUE, NAVY, () => true);

function writePng(name: string, width: number, height: number, layers: Layer[], samples?: number) {
  const file = join(OUT, name);
  writeFileSync(file, encodePng(width, height, render(width, height, layers, samples)));
  console.log(`wrote ${file}`);
}

// --- Screenshots: a sketch of the services screen, with bars where the text goes -------------------

function servicesSketch(width: number, height: number, columns: number): Layer[] {
  const aspect = width / height;
  const px = (v: number) => v / width;
  const py = (v: number) => v / height;
  const layers: Layer[] = [
    () => [243, 244, 246, 255],
    (x, y) => (y < py(72) ? NAVY : null),
    roundedRect(px(24), py(22), px(52), py(50), py(8), WHITE, aspect),
    roundedRect(px(64), py(28), px(64 + Math.min(220, width * 0.3)), py(44), py(6), [255, 255, 255, 200], aspect),
    roundedRect(px(24), py(104), px(24 + Math.min(520, width * 0.7)), py(136), py(8), [17, 24, 39, 255], aspect),
    roundedRect(px(24), py(150), px(24 + Math.min(380, width * 0.5)), py(166), py(6), [107, 114, 128, 255], aspect),
  ];
  const gap = 24;
  const cardWidth = (width - gap * (columns + 1)) / columns;
  const cardHeight = Math.min(300, cardWidth * 0.95);
  for (let row = 0; ; row++) {
    const top = 196 + row * (cardHeight + gap);
    if (top + cardHeight > height - gap) break;
    for (let col = 0; col < columns; col++) {
      const left = gap + col * (cardWidth + gap);
      const tone = (row * columns + col) % 2 ? BLUE : NAVY;
      layers.push(
        roundedRect(px(left), py(top), px(left + cardWidth), py(top + cardHeight), py(14), WHITE, aspect),
        roundedRect(px(left), py(top), px(left + cardWidth), py(top + cardHeight * 0.45), py(14), tone, aspect),
        roundedRect(
          px(left + 16),
          py(top + cardHeight * 0.52),
          px(left + cardWidth * 0.75),
          py(top + cardHeight * 0.52 + 18),
          py(6),
          [17, 24, 39, 255],
          aspect,
        ),
        roundedRect(
          px(left + 16),
          py(top + cardHeight * 0.66),
          px(left + cardWidth - 16),
          py(top + cardHeight * 0.66 + 10),
          py(5),
          [156, 163, 175, 255],
          aspect,
        ),
        roundedRect(
          px(left + 16),
          py(top + cardHeight * 0.74),
          px(left + cardWidth * 0.6),
          py(top + cardHeight * 0.74 + 10),
          py(5),
          [156, 163, 175, 255],
          aspect,
        ),
        roundedRect(px(left + 16), py(top + cardHeight * 0.84), px(left + cardWidth - 16), py(top + cardHeight * 0.84 + 30), py(8), BLUE, aspect),
      );
    }
  }
  return layers;
}

mkdirSync(join(OUT, 'screenshots'), { recursive: true });

// "any" icons: a rounded tile on transparency. Maskable and Apple icons: full bleed (the platform crops).
const tile = verticalGradient(BLUE, NAVY, (x, y) => roundedRect(0, 0, 1, 1, 0.2, WHITE)(x, y) !== null);
writePng('pwa-192.png', 192, 192, [tile, ...glyph()]);
writePng('pwa-512.png', 512, 512, [tile, ...glyph()]);
writePng('maskable-512.png', 512, 512, [fullBleed, ...glyph(0.9)]);
writePng('apple-touch-icon.png', 180, 180, [fullBleed, ...glyph(0.95)]);
writePng('screenshots/wide.png', 1280, 720, servicesSketch(1280, 720, 4), 2);
writePng('screenshots/narrow.png', 720, 1280, servicesSketch(720, 1280, 2), 2);

const favicon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
  <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2563eb"/><stop offset="1" stop-color="#1e3a8a"/></linearGradient></defs>
  <rect width="64" height="64" rx="13" fill="url(#g)"/>
  <path d="M25.3 24.3a6.7 6.7 0 0 1 13.4 0" fill="none" stroke="#fff" stroke-width="2.6"/>
  <rect x="17.9" y="23" width="28.2" height="26.9" rx="3.2" fill="#fff"/>
  <path d="M33.9 27.5 26.9 38.4h4.5l-1.9 7.7 7.7-11.5h-4.5z" fill="#fbbf24"/>
</svg>
`;
writeFileSync(join(OUT, 'favicon.svg'), favicon);
console.log(`wrote ${join(OUT, 'favicon.svg')}`);
