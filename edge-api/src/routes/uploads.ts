import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { BucketMissing } from '../blobs/blob-store.ts';
import { DELIVERY_FILE_NAME_MAX } from '../contract/deliveries.ts';
import { uploadLimitMegabytes, type Bucket, type UploadKind } from '../contract/uploads.ts';
import type { Role } from '../contract/users.ts';
import type { Deps } from '../deps.ts';
import { ApiError, badRequest, forbidden, misconfigured } from '../errors.ts';
import { detectImageType } from '../lib/image-types.ts';
import { requireRole, type AppEnv, type SignedInEnv } from '../middleware/session.ts';

const MB = 1024 * 1024;

/**
 * `mine`: the file is named under its uploader's id (`payments/{userId}/...`), so an order can only be sent a
 * customer's own upload, never one whose path they learnt (issue 30).
 */
const uploadKinds: Record<UploadKind, { bucket: Bucket; maxMegabytes: number; roles: readonly Role[]; folder?: string; anyType?: boolean; mine?: boolean }> = {
  service: { bucket: 'service-images', maxMegabytes: uploadLimitMegabytes.service, roles: ['admin'] },
  proof: { bucket: 'order-proofs', maxMegabytes: uploadLimitMegabytes.proof, roles: ['moderator', 'admin'] },
  stock: { bucket: 'stock-images', maxMegabytes: uploadLimitMegabytes.stock, roles: ['admin'] },
  // A customer's payment screenshot, kept apart under payments/ so an order's proof can only name one of these.
  payment: { bucket: 'order-proofs', maxMegabytes: uploadLimitMegabytes.payment, roles: ['user', 'moderator', 'admin'], folder: 'payments/', mine: true },
  // A customer's screenshot of a problem with a delivered order (decision 063): private, in a folder of its own.
  report: { bucket: 'order-proofs', maxMegabytes: uploadLimitMegabytes.report, roles: ['user', 'moderator', 'admin'], folder: 'reports/', mine: true },
  // A finished document delivered to an order (decision 069): any type, private, never served by /files.
  delivery: { bucket: 'order-proofs', maxMegabytes: uploadLimitMegabytes.delivery, roles: ['moderator', 'admin'], folder: 'deliveries/', anyType: true },
  // A picture attached to a support ticket's message (decision 169): private, under its uploader's id.
  ticket: { bucket: 'order-proofs', maxMegabytes: uploadLimitMegabytes.ticket, roles: ['user', 'moderator', 'admin'], folder: 'tickets/', mine: true },
};

const isUploadKind = (value: unknown): value is UploadKind => typeof value === 'string' && Object.hasOwn(uploadKinds, value);

// Room for the multipart boundaries, part headers and the `kind` field around the file itself.
const ENVELOPE_BYTES = 64 * 1024;

const tooLarge = (megabytes: number) => new ApiError('payload_too_large', `File too large! Please select an image smaller than ${megabytes}MB`);

/**
 * Refuses a body larger than the biggest file this caller's role may upload, before reading it when
 * Content-Length says so, and while streaming it otherwise.
 */
const limitBodyForRole = createMiddleware<SignedInEnv>(async (c, next) => {
  const role = c.get('user').user_role;
  const largest = Math.max(
    ...Object.values(uploadKinds)
      .filter((kind) => kind.roles.includes(role))
      .map((kind) => kind.maxMegabytes),
  );
  return bodyLimit({
    maxSize: largest * MB + ENVELOPE_BYTES,
    onError: () => {
      throw tooLarge(largest);
    },
  })(c, next);
});

async function putOrExplain(deps: Deps, bucket: Bucket, name: string, bytes: Uint8Array, mime: string) {
  try {
    await deps.blobs.put(bucket, name, bytes, mime);
  } catch (error) {
    if (!(error instanceof BucketMissing)) throw error;
    deps.logger.error('upload refused: a Storage bucket is missing', { bucket: error.bucket });
    throw misconfigured(
      `Image uploads are not set up yet: the Storage bucket "${error.bucket}" does not exist. Create the buckets service-images (public), order-proofs and stock-images (private).`,
      { bucket: error.bucket },
    );
  }
}

export function uploadRoutes(deps: Deps) {
  return new Hono<AppEnv>().post('/', requireRole(), limitBodyForRole, async (c) => {
    if (!c.req.header('content-type')?.toLowerCase().startsWith('multipart/form-data')) {
      throw badRequest('Send the image as multipart/form-data with the fields file and kind', [{ path: 'file', message: 'is required' }]);
    }
    let form: FormData;
    try {
      form = await c.req.formData();
    } catch {
      throw badRequest('The upload could not be read as multipart/form-data');
    }
    const kind = form.get('kind');
    if (!isUploadKind(kind)) {
      throw badRequest('kind: must be one of service, proof, stock, payment, report, delivery, ticket', [
        { path: 'kind', message: 'must be one of service, proof, stock, payment, report, delivery, ticket' },
      ]);
    }
    const rules = uploadKinds[kind];
    if (!rules.roles.includes(c.get('user').user_role)) throw forbidden(`You may not upload ${kind} images`);

    const file = form.get('file');
    if (!(file instanceof File)) throw badRequest('file: is required', [{ path: 'file', message: 'is required' }]);
    if (file.size > rules.maxMegabytes * MB) throw tooLarge(rules.maxMegabytes);
    if (file.size === 0) throw badRequest('file: is empty', [{ path: 'file', message: 'is empty' }]);

    // The declared type and the file name are the sender's word; the bytes decide.
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (rules.anyType) {
      const name = `${rules.folder ?? ''}${crypto.randomUUID()}`;
      await putOrExplain(deps, rules.bucket, name, bytes, 'application/octet-stream');
      // eslint-disable-next-line no-control-regex -- slashes and control characters leave the name
      const fileName = file.name.replace(/[/\\\u0000-\u001f]/g, '_').slice(-DELIVERY_FILE_NAME_MAX) || 'file';
      c.header('Cache-Control', 'no-store');
      return c.json({ path: `${rules.bucket}/${name}`, name: fileName, size: bytes.byteLength }, 201);
    }
    const type = detectImageType(bytes);
    if (!type) {
      throw new ApiError('unsupported_media_type', 'Invalid file type! Please select a JPG, PNG, WEBP or GIF image (HEIC is converted to JPEG before upload)');
    }
    const name = `${rules.folder ?? ''}${rules.mine ? `${c.get('user').id}/` : ''}${crypto.randomUUID()}.${type.extension}`;
    await putOrExplain(deps, rules.bucket, name, bytes, type.mime);
    return c.json({ path: `${rules.bucket}/${name}`, url: await deps.blobs.url(rules.bucket, name) }, 201);
  });
}
