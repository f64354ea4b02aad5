/** What the upload tests send: bytes that start like an image, in the multipart form the PWA posts. */

export const MB = 1024 * 1024;
const signatures = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpg: [0xff, 0xd8, 0xff, 0xe0],
  gif: [...'GIF89a'].map((ch) => ch.charCodeAt(0)),
  webp: [...'RIFF\x24\x00\x00\x00WEBPVP8 '].map((ch) => ch.charCodeAt(0)),
};

/** Bytes that start like a real image of that type, padded to `size`. */
export function imageBytes(type: keyof typeof signatures, size = 64) {
  const bytes = new Uint8Array(size);
  bytes.set(signatures[type]);
  for (let i = signatures[type].length; i < Math.min(size, 4096); i++) bytes[i] = i % 251;
  return bytes;
}

/** The multipart form the PWA posts: the kind of upload and the file (either left out when null). */
export function form(kind: string | null, file: Uint8Array | null, name = 'photo.png', type = 'image/png') {
  const body = new FormData();
  if (kind !== null) body.append('kind', kind);
  if (file) body.append('file', new File([file as Uint8Array<ArrayBuffer>], name, { type }));
  return body;
}
