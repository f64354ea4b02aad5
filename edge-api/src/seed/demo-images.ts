import { deflateSync } from 'node:zlib';

/**
 * The demo's pictures are files of the site (`public/demo/*.svg`, served and precached like the app's
 * icons): a service row holds only their address. Earlier versions stored each one inline as a
 * `data:` URL, copied into every order; `legacyDemoImages` maps those to the files, for the move of
 * inline images (operations/move-inline-images.ts).
 */
const demoPictures = [
  { file: 'documents', label: 'Documents', from: '#1e3a8a', to: '#4338ca' },
  { file: 'editable-file', label: 'Editable File', from: '#7c2d12', to: '#c2410c' },
  { file: 'wise-account', label: 'Wise Account', from: '#065f46', to: '#0f766e' },
  { file: 'wise-business', label: 'Wise Business', from: '#14532d', to: '#15803d' },
  { file: 'vps', label: 'VPS', from: '#312e81', to: '#6d28d9' },
  { file: 'rdp-vps', label: 'RDP VPS', from: '#1f2937', to: '#374151' },
] as const;

export type DemoPicture = (typeof demoPictures)[number]['file'];

/** The picture as it is in `public/demo/<file>.svg`. */
export function demoSvg(label: string, from: string, to: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs><rect width="640" height="360" fill="url(#g)"/><text x="320" y="195" font-family="sans-serif" font-size="44" font-weight="700" fill="#fff" text-anchor="middle">${label}</text></svg>`;
}

/** A demo picture's address on this site. */
export const demoImage = (file: DemoPicture) => `/demo/${file}.svg`;

/** Every demo picture, with the text of its file. */
export const demoImageFiles = () => demoPictures.map((p) => ({ path: demoImage(p.file), svg: demoSvg(p.label, p.from, p.to) }));

const inline = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

/** The inline `data:` pictures earlier demo data stored, each with the address of the same picture now. */
export function legacyDemoImages(): Map<string, string> {
  return new Map(demoPictures.map((p) => [inline(demoSvg(p.label, p.from, p.to)), demoImage(p.file)]));
}

/** The inline picture earlier demo stock rows held as their authenticator image (a private image now). */
export const legacyDemoAuthImage = () => inline(demoSvg('Auth', '#0f766e', '#115e59'));

/** Where the demo stock rows' authenticator image is kept (a private stock image, like an uploaded one). */
export const DEMO_AUTH_IMAGE = { bucket: 'stock-images', name: 'demo-auth.png' } as const;

/**
 * The demo stock rows' authenticator image: a 64×64 PNG in the shop's teal, made here so the demo needs
 * no image file in the store to start with (stock images are PNG, JPEG, WebP or GIF, never SVG).
 */
export function demoAuthPng(): Uint8Array {
  const size = 64;
  const row = Buffer.alloc(1 + size * 3);
  for (let x = 0; x < size; x++) row.set([0x0f, 0x76, 0x6e], 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: size }, () => row));
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]));
}

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}
