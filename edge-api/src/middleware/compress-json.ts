import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions } from 'node:zlib';
import { createMiddleware } from 'hono/factory';
import { encodedTag } from '../lib/etag.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Answers smaller than this go out as they are: a compressed header and frame would cost more than they save. */
export const COMPRESS_THRESHOLD = 1024;

const compressible = /^\s*(?:application\/(?:[\w.+-]*\+)?json|text\/(?:plain|csv|html))\b/i;

/** The encoding a client accepts, brotli first; q=0 refuses one. */
export function chooseEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name!, q ? Number(q.slice(2)) : 1);
  }
  const allows = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (allows('br')) return 'br';
  if (allows('gzip')) return 'gzip';
  return undefined;
}

/**
 * Brotli's quality for answers made per request: 4 rather than 5 (decision 073, amending 050). Measured one
 * after the other in one process, a 24 KB list of services: quality 4 0.27 ms and 2,416 bytes, quality 5
 * 0.69 ms and 2,356 bytes; 7 KB: 0.13 ms and 974 bytes against 0.22 ms and 948 bytes. On a 1.5 MB sync
 * page both made about 132 KB in about the same time.
 */
const BROTLI_QUALITY = 4;

/**
 * Answers up to this size are compressed on the main thread (well under a millisecond at these settings),
 * larger ones on libuv's threads. Handing a small answer to a thread costs about as much as compressing it,
 * and the encoders' memory, freed on four threads' own malloc arenas, stayed with the process after a
 * burst (decision 073): 20 MB and more of the app's resident memory once idle.
 */
export const COMPRESS_ON_MAIN_THREAD_BYTES = 64 * 1024;

const brotliOptions = (length: number): BrotliOptions => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_SIZE_HINT]: length,
    // A window no larger than the answer (from 1 KB to the default 4 MB): the same bytes, smaller buffers.
    [constants.BROTLI_PARAM_LGWIN]: Math.min(constants.BROTLI_DEFAULT_WINDOW, Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(length + 16)))),
  },
});

/** An answer's bytes as the Node entry sends them for `encoding` (also what the bench counts on the wire). */
export async function encodeAnswer(body: Uint8Array, encoding: 'br' | 'gzip'): Promise<Buffer> {
  const small = body.length <= COMPRESS_ON_MAIN_THREAD_BYTES;
  if (encoding === 'br') return small ? brotliCompressSync(body, brotliOptions(body.length)) : brotli(body, brotliOptions(body.length));
  return small ? gzipSync(body, { level: 6 }) : gzipAsync(body, { level: 6 });
}

/** Compressed copies of public answers kept, by encoding and strong ETag: the newest few. */
const KEPT_COPIES = 16;

/**
 * The Node entry's compression of the answers it builds (API JSON, CSV exports): brotli at a quality
 * fit for answers made per request (4: a 1.3 MB sync page in tens of milliseconds), or gzip, for
 * answers of at least about 1 KB. Workers need none: Cloudflare compresses at its edge. Files, images
 * and streams are left alone; the built app is compressed at build time (vite.config.ts).
 *
 * A public answer with a strong ETag (the list of services) is compressed once per encoding and kept
 * (decision 166); a compressed copy goes out under the tag with its encoding appended.
 */
export function compressAnswers() {
  const kept = new Map<string, Buffer>();
  const keep = (key: string, bytes: Buffer) => {
    if (kept.size >= KEPT_COPIES) kept.delete(kept.keys().next().value!);
    kept.set(key, bytes);
  };
  return createMiddleware(async (c, next) => {
    await next();
    const res = c.res;
    if (c.req.method === 'HEAD' || !res.body || res.status === 204 || res.status === 206 || res.headers.has('Content-Encoding')) return;
    if (!compressible.test(res.headers.get('Content-Type') ?? '')) return;
    const cacheControl = res.headers.get('Cache-Control') ?? '';
    if (/\bno-transform\b/i.test(cacheControl)) return;
    const vary = res.headers.get('Vary');
    const varied = vary && /\baccept-encoding\b/i.test(vary) ? vary : vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding';
    const headers = new Headers(res.headers);
    headers.set('Vary', varied);
    const etag = headers.get('ETag');
    const strongTag = etag && !etag.startsWith('W/') ? etag : undefined;
    const accepted = chooseEncoding(c.req.header('Accept-Encoding'));
    const key = accepted && strongTag && /\bpublic\b/i.test(cacheControl) ? `${accepted} ${strongTag}` : undefined;
    let out = key ? kept.get(key) : undefined;
    let encoding = out ? accepted : undefined;
    if (out) await res.body.cancel();
    else {
      const body = Buffer.from(await res.arrayBuffer());
      encoding = body.length >= COMPRESS_THRESHOLD ? accepted : undefined;
      out = encoding ? await encodeAnswer(body, encoding) : body;
      if (key && encoding) keep(key, out);
    }
    if (encoding) headers.set('Content-Encoding', encoding);
    headers.set('Content-Length', String(out.length));
    if (encoding && etag) headers.set('ETag', strongTag ? encodedTag(strongTag, encoding) : etag);
    c.res = undefined;
    c.res = new Response(new Uint8Array(out), { status: res.status, statusText: res.statusText, headers });
  });
}
