import { join } from 'node:path';
import type { BlobStore } from './blobs/blob-store.ts';
import { createDiskBlobStore } from './blobs/disk-store.ts';
import { deriveUrlSigningKey } from './blobs/signed-urls.ts';
import { createSupabaseBlobStore } from './blobs/supabase-store.ts';
import { decodeKey } from './lib/secrets.ts';
import type { LocalKeys } from './local-keys.ts';
import { DEMO_AUTH_IMAGE, demoAuthPng, legacyDemoAuthImage, legacyDemoImages } from './seed/demo-images.ts';

// The Node entry's image stores, shared with `npm run migrate`, which moves the inline images of
// earlier versions into the same store the shop reads them from (decision 051).

/**
 * Supabase Storage of the project at `url`, through the service-role key. Its /files links are signed
 * with a key derived from the credentials key (as the worker's are), so there is no other secret.
 */
export async function supabaseImageStore(project: { url: string; serviceRoleKey: string }, credentialsKey: Uint8Array): Promise<BlobStore> {
  return createSupabaseBlobStore({ url: project.url, serviceRoleKey: project.serviceRoleKey, urlSigningKey: await deriveUrlSigningKey(credentialsKey) });
}

/** Embedded mode's store: the files under DATA_DIR/files, private links signed with the data directory's own key (keys.json). */
export function dataDirImageStore(dataDir: string, keys: Pick<LocalKeys, 'fileSigningKey'>): Promise<BlobStore> {
  return createDiskBlobStore(join(dataDir, 'files'), decodeKey(keys.fileSigningKey, 'file signing key'));
}

/** The inline pictures of earlier demo data (SVGs the move does not store but points at their files now). */
export const legacyImageDataUrls = (): string[] => [...legacyDemoImages().keys(), legacyDemoAuthImage()];

/** The inline pictures of earlier demo data, and where each one is now (the `known` of moveInlineImages). */
export function legacyImages(blobs: BlobStore): Map<string, () => Promise<string>> {
  const known = new Map<string, () => Promise<string>>([...legacyDemoImages()].map(([inline, path]) => [inline, async () => path]));
  known.set(legacyDemoAuthImage(), async () => {
    const { bucket, name } = DEMO_AUTH_IMAGE;
    if (!(await blobs.read(bucket, name))) await blobs.put(bucket, name, demoAuthPng(), 'image/png');
    return `${bucket}/${name}`;
  });
  return known;
}
