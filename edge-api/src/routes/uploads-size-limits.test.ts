import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness, type TestUser } from '../testing/api-harness.ts';
import { form, imageBytes, MB } from '../testing/upload-forms.ts';

// The uploads at the size limits: about 115 MB of multipart bodies, built, sent, parsed and stored, which is
// many seconds of memory traffic on a small machine by nature. In the processes project (vitest.config.ts,
// `npm run test:processes`, which CI runs) so `npm test` stays quick; the rest of the uploads' rules, the
// limit on Content-Length among them, are in uploads.test.ts.

let api: ApiHarness;
let admin: TestUser;
let moderator: TestUser;

type ErrorBody = { error: { code: string; message: string } };

const upload = (user: TestUser, kind: string, file: Uint8Array) => api.call<ErrorBody>('POST', '/api/uploads', { user, body: form(kind, file) });

beforeAll(async () => {
  api = await createApiHarness();
  [admin, moderator] = await Promise.all([api.createUser('admin'), api.createUser('moderator')]);
});
afterAll(() => api.close());

describe('upload size limits', () => {
  it('takes stock images and proofs up to 10 MB and service images up to 32 MB', async () => {
    expect((await upload(admin, 'stock', imageBytes('png', 10 * MB))).status).toBe(201);
    const stock = await upload(admin, 'stock', imageBytes('png', 10 * MB + 1));
    expect(stock.status).toBe(413);
    expect(stock.body.error.code).toBe('payload_too_large');
    expect(stock.body.error.message).toContain('smaller than 10MB');

    expect((await upload(moderator, 'proof', imageBytes('jpg', 10 * MB + 1))).status).toBe(413);
    expect((await upload(admin, 'proof', imageBytes('jpg', 10 * MB + 1))).status).toBe(413);

    expect((await upload(admin, 'service', imageBytes('jpg', 10 * MB + 1))).status).toBe(201);
    expect((await upload(admin, 'service', imageBytes('jpg', 32 * MB))).status).toBe(201);
    const service = await upload(admin, 'service', imageBytes('jpg', 32 * MB + 1));
    expect(service.status).toBe(413);
    expect(service.body.error.message).toContain('smaller than 32MB');
  }, 120_000);
});
