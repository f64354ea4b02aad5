import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness, type TestUser } from '../../../edge-api/src/testing/api-harness.ts';
import { AppError } from './app-error.ts';
import {
  checkImageFile,
  HEIC_FAILED,
  INVALID_TYPE,
  isHeicFile,
  isImageFile,
  NETWORK_FAILED,
  tooLargeProblem,
  UPLOAD_FAILED,
  uploadImage,
  uploadProblem,
  type UploadStage,
} from './image-upload.ts';

const MB = 1024 * 1024;
// A 1x1 PNG.
const pngBytes = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='), (c) => c.charCodeAt(0));

const fileOf = (size: number, name: string, type: string) => new File([new Uint8Array(size)], name, { type });

describe('checkImageFile (Wise stock images)', () => {
  it('takes JPG, PNG, WEBP, GIF, HEIC/HEIF and generic binary up to 10 MB', () => {
    for (const type of ['image/jpeg', 'image/jpg', 'image/png', 'image/webp', 'image/gif', 'image/heic', 'image/heif', 'application/octet-stream']) {
      expect(checkImageFile(fileOf(10, 'photo', type)), type).toBeNull();
    }
    expect(checkImageFile(fileOf(10 * MB, 'exactly-ten.png', 'image/png'))).toBeNull();
  });

  it('takes a file named .heic or .heif whatever type the system gave it', () => {
    expect(checkImageFile(fileOf(10, 'IMG_0001.HEIC', ''))).toBeNull();
    expect(checkImageFile(fileOf(10, 'scan.heif', 'text/plain'))).toBeNull();
  });

  it("refuses a file over 10 MB with 'File too large!'", () => {
    expect(checkImageFile(fileOf(10 * MB + 1, 'big.png', 'image/png'))).toEqual({ title: 'File too large!', text: 'Please select an image smaller than 10MB' });
  });

  it("refuses other types with 'Invalid file type!'", () => {
    for (const [name, type] of [
      ['notes.pdf', 'application/pdf'],
      ['picture.bmp', 'image/bmp'],
      ['vector.svg', 'image/svg+xml'],
      ['no-type.png', ''],
    ]) {
      expect(checkImageFile(fileOf(10, name!, type!)), name).toEqual({
        title: 'Invalid file type!',
        text: 'Please select JPG, PNG, WEBP, GIF, or HEIC image files',
      });
    }
  });

  it('recognises HEIC by type, by name, and by its brand when the type is generic', async () => {
    const heicHead = new Uint8Array([0, 0, 0, 24, ...Array.from('ftypheic', (c) => c.charCodeAt(0))]);
    expect(await isHeicFile(new File([heicHead], 'upload.bin', { type: 'application/octet-stream' }))).toBe(true);
    expect(await isHeicFile(fileOf(10, 'a.jpg', 'image/heif'))).toBe(true);
    expect(await isHeicFile(fileOf(10, 'a.heic', ''))).toBe(true);
    expect(await isHeicFile(new File([pngBytes], 'a.bin', { type: 'application/octet-stream' }))).toBe(false);
    expect(await isHeicFile(new File([heicHead], 'a.png', { type: 'image/png' }))).toBe(false);
  });
});

describe('isImageFile (service image, delivery proof: any image)', () => {
  it('takes any image type, and HEIC/HEIF by name when the system gave no type', () => {
    expect(isImageFile(fileOf(10, 'picture.bmp', 'image/bmp'))).toBe(true);
    expect(isImageFile(fileOf(10, 'shot.png', 'image/png'))).toBe(true);
    expect(isImageFile(fileOf(10, 'IMG_0001.HEIC', ''))).toBe(true);
    expect(isImageFile(fileOf(10, 'notes.pdf', 'application/pdf'))).toBe(false);
    expect(isImageFile(fileOf(10, 'upload.bin', 'application/octet-stream'))).toBe(false);
  });
});

describe('uploadImage against the real API', () => {
  let api: ApiHarness;
  let admin: TestUser;
  let moderator: TestUser;

  beforeAll(async () => {
    api = await createApiHarness();
    admin = await api.createUser('admin');
    moderator = await api.createUser('moderator');
  });
  afterAll(async () => {
    await api?.close();
  });

  const through = (user: TestUser, options: { network?: 'down' } = {}) => ({
    baseUrl: 'http://api.test',
    getToken: async () => user.token,
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (options.network === 'down') throw new TypeError('Failed to fetch');
      return api.app.request(String(input), init);
    }) as typeof fetch,
  });

  async function problemOf(promise: Promise<unknown>) {
    const error = await promise.then(
      () => null,
      (cause: unknown) => cause,
    );
    expect(error).toBeInstanceOf(AppError);
    return uploadProblem(error, 'stock');
  }

  it('uploads a stock image and answers its stored path and a URL to show it', async () => {
    const stages: UploadStage[] = [];
    const image = await uploadImage(new File([pngBytes], 'auth.png', { type: 'image/png' }), 'stock', { ...through(admin), onStage: (s) => stages.push(s) });
    expect(image.path).toMatch(/^stock-images\/[0-9a-f-]+\.png$/);
    expect(image.url).toBeTruthy();
    expect(stages).toEqual(['uploading']);
  });

  it("says 'Invalid file type!' when the bytes are not an image, whatever the name says", async () => {
    const fake = new File([new TextEncoder().encode('not really a picture')], 'fake.png', { type: 'image/png' });
    expect(await problemOf(uploadImage(fake, 'stock', through(admin)))).toEqual(INVALID_TYPE);
  });

  it('checks size and type before sending anything', async () => {
    const offline = through(admin, { network: 'down' });
    expect(await problemOf(uploadImage(fileOf(10 * MB + 1, 'big.png', 'image/png'), 'stock', offline))).toEqual(tooLargeProblem(10));
    expect(await problemOf(uploadImage(fileOf(10, 'doc.pdf', 'application/pdf'), 'stock', offline))).toEqual(INVALID_TYPE);
  });

  it("says 'Upload Failed!' when the server refuses (a moderator may not add stock images)", async () => {
    expect(await problemOf(uploadImage(new File([pngBytes], 'auth.png', { type: 'image/png' }), 'stock', through(moderator)))).toEqual(UPLOAD_FAILED);
  });

  it('converts HEIC before uploading, and says so when it cannot (nothing is sent then)', async () => {
    const stages: UploadStage[] = [];
    let sent = 0;
    const counting = {
      ...through(admin),
      fetch: (async () => {
        sent += 1;
        return new Response(null, { status: 500 });
      }) as typeof fetch,
    };
    const unreadable = new File([new Uint8Array(64)], 'IMG_0042.HEIC', { type: 'image/heic' });
    expect(await problemOf(uploadImage(unreadable, 'stock', { ...counting, onStage: (s) => stages.push(s) }))).toEqual(HEIC_FAILED);
    expect(stages).toEqual(['converting']);
    expect(sent).toBe(0);
  });

  it('names a network error as such', async () => {
    expect(await problemOf(uploadImage(new File([pngBytes], 'auth.png', { type: 'image/png' }), 'stock', through(admin, { network: 'down' })))).toEqual(
      NETWORK_FAILED,
    );
  });
});
