import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSupabaseBlobStore } from '../blobs/supabase-store.ts';
import type { Deps } from '../deps.ts';
import { createApiHarness, remoteApi, type ApiHarness, type TestUser } from '../testing/api-harness.ts';
import { form, imageBytes, MB } from '../testing/upload-forms.ts';

let api: ApiHarness;
let admin: TestUser;
let moderator: TestUser;
let customer: TestUser;

type Uploaded = { path: string; url: string };
type ErrorBody = { error: { code: string; message: string; details?: { path: string }[] } };

const upload = (user: TestUser | undefined, kind: string | null, file: Uint8Array | null, name?: string, type?: string) =>
  api.call<Uploaded & ErrorBody>('POST', '/api/uploads', { user, body: form(kind, file, name, type) });

/** Opens a URL an upload answered, as the browser would, on the entry under test. */
const fetchFile = (url: string) => api.app.request(url);

beforeAll(async () => {
  api = await createApiHarness();
  [admin, moderator, customer] = await Promise.all([api.createUser('admin'), api.createUser('moderator'), api.createUser('user')]);
});
afterAll(() => api.close());

describe('uploading images', () => {
  it('stores the bytes under a random name with the extension of what they really are, served back unchanged', async () => {
    const bytes = imageBytes('png', 5000);
    const uploaded = await upload(admin, 'stock', bytes, 'evil.exe', 'text/plain');
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.path).toMatch(/^stock-images\/[0-9a-f-]{36}\.png$/);
    expect(uploaded.body.url).toMatch(new RegExp(`^/files/${uploaded.body.path}\\?expires=\\d+&sig=[\\w-]+$`));

    const served = await fetchFile(uploaded.body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toBe('no-store');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);
  });

  it('recognises JPEG, PNG, WEBP and GIF by their bytes, whatever name and type they are sent with', async () => {
    for (const type of ['jpg', 'png', 'webp', 'gif'] as const) {
      const uploaded = await upload(admin, 'service', imageBytes(type), 'upload.bin', 'application/octet-stream');
      expect(uploaded.status, type).toBe(201);
      expect(uploaded.body.path).toMatch(new RegExp(`^service-images/[0-9a-f-]{36}\\.${type}$`));
      const served = await fetchFile(uploaded.body.url);
      expect(served.headers.get('content-type')).toBe(type === 'jpg' ? 'image/jpeg' : `image/${type}`);
    }
  });

  it('answers 415 to anything that is not one of those images, whatever it claims to be', async () => {
    const text = new TextEncoder().encode('just some text pretending to be a picture');
    const named = await upload(admin, 'stock', text, 'photo.png', 'image/png');
    expect(named.status).toBe(415);
    expect(named.body.error.code).toBe('unsupported_media_type');
    // HEIC is converted to JPEG in the browser; the server accepts only the four web formats.
    const heic = new Uint8Array([0, 0, 0, 0x18, ...[...'ftypheic'].map((ch) => ch.charCodeAt(0)), 0, 0, 0, 0]);
    expect((await upload(admin, 'stock', heic, 'IMG_0001.HEIC', 'image/heic')).status).toBe(415);
  });

  it('serves public service images to anyone with long caching, and private ones only through their signed URL', async () => {
    const service = await upload(admin, 'service', imageBytes('jpg'));
    const servedPublic = await fetchFile(service.body.url);
    expect(servedPublic.status).toBe(200);
    if (remoteApi) {
      // With Supabase, public images are linked straight to Storage's public URL (its caching, set at upload).
      expect(service.body.url).toBe(`${remoteApi.supabaseUrl}/storage/v1/object/public/${service.body.path}`);
    } else {
      expect(service.body.url).toBe(`/files/${service.body.path}`);
      expect(servedPublic.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }

    const proof = await upload(moderator, 'proof', imageBytes('png'));
    expect(proof.status).toBe(201);
    expect(proof.body.path).toMatch(/^order-proofs\//);
    const url = new URL(proof.body.url, 'http://shop.test');
    const sig = url.searchParams.get('sig')!;
    const tampered = `${url.pathname}?expires=${url.searchParams.get('expires')}&sig=${sig.startsWith('A') ? 'B' : 'A'}${sig.slice(1)}`;
    expect((await fetchFile(tampered)).status).toBe(403);
    expect((await fetchFile(url.pathname)).status).toBe(403);
    const laterExpiry = `${url.pathname}?expires=${Number(url.searchParams.get('expires')) + 3600}&sig=${sig}`;
    expect((await fetchFile(laterExpiry)).status).toBe(403);
    expect((await fetchFile(proof.body.url)).status).toBe(200);
  });

  it('admits each kind only to its roles: proofs for staff, service and stock images for admins', async () => {
    for (const kind of ['service', 'proof', 'stock']) {
      expect((await upload(undefined, kind, imageBytes('png'))).status, kind).toBe(401);
      expect((await upload(customer, kind, imageBytes('png'))).status, kind).toBe(403);
      expect((await upload(admin, kind, imageBytes('png'))).status, kind).toBe(201);
    }
    expect((await upload(moderator, 'proof', imageBytes('png'))).status).toBe(201);
    expect((await upload(moderator, 'service', imageBytes('png'))).status).toBe(403);
    expect((await upload(moderator, 'stock', imageBytes('png'))).status).toBe(403);
  });

  it('answers 400 naming the field when the kind or the file is missing or wrong', async () => {
    for (const [path, body] of [
      ['kind', form(null, imageBytes('png'))],
      ['kind', form('avatar', imageBytes('png'))],
      ['file', form('stock', null)],
      ['file', form('stock', new Uint8Array(0))],
    ] as const) {
      const bad = await api.call<ErrorBody>('POST', '/api/uploads', { user: admin, body });
      expect(bad.status, path).toBe(400);
      expect(bad.body.error.details!.map((d) => d.path)).toEqual([path]);
    }
    const notMultipart = await api.call<ErrorBody>('POST', '/api/uploads', { user: admin, json: { kind: 'stock', file: 'abc' } });
    expect(notMultipart.status).toBe(400);
  });
});

// The uploads at the size limits (tens of megabytes through a multipart body) are in uploads-size-limits.test.ts.
describe('upload size limits', () => {
  // Only in-process can the test see that the body was never read: over HTTP the client sends it regardless.
  it.skipIf(remoteApi)('refuses a body whose Content-Length is over the limit without reading it', async () => {
    const unreadable = () =>
      new ReadableStream({
        pull(controller) {
          controller.error(new Error('the body was read'));
        },
      });
    const send = (user: TestUser, contentLength: number) =>
      api.app.request('/api/uploads', {
        method: 'POST',
        headers: { authorization: `Bearer ${user.token}`, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(contentLength) },
        body: unreadable(),
        duplex: 'half',
      } as RequestInit);
    // A moderator's largest upload is a delivered file (decision 069).
    const tooBigForModerator = await send(moderator, 21 * MB);
    expect(tooBigForModerator.status).toBe(413);
    expect(((await tooBigForModerator.json()) as ErrorBody).error.message).toContain('smaller than 20MB');
    expect((await send(admin, 33 * MB)).status).toBe(413);
  });
});

describe('uploads without the Storage buckets', () => {
  // The Storage here must lack a bucket, which a running deployment's cannot be made to on cue.
  it.skipIf(remoteApi)('answers a clear 503 naming the bucket when Storage has not got it, and keeps nothing', async () => {
    // Supabase Storage's answer for a bucket that was never created (shared/notes/supabase-wire.md).
    const storage = new Hono().post('/storage/v1/object/:bucket/:path{.+}', (c) =>
      c.json({ statusCode: '404', error: 'Bucket not found', message: 'Bucket not found' }, 400),
    );
    const withoutBuckets = await createSupabaseBlobStore({
      url: 'http://storage.test',
      serviceRoleKey: 'service-role',
      urlSigningKey: crypto.getRandomValues(new Uint8Array(32)),
      fetch: async (input, init) => storage.request(String(input), init),
    });
    const deps = api.deps as Deps;
    const working = deps.blobs;
    deps.blobs = withoutBuckets;
    try {
      const refused = await upload(moderator, 'proof', imageBytes('png'));
      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe('misconfigured');
      expect(refused.body.error.message).toContain('the Storage bucket "order-proofs" does not exist');
      expect(refused.body.error.message).toContain('service-images (public), order-proofs and stock-images (private)');
    } finally {
      deps.blobs = working;
    }
  });
});
