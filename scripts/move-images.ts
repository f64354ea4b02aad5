import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { buckets, parseBlobRef } from '../edge-api/src/contract/uploads.ts';
import { createSupabaseBlobStore } from '../edge-api/src/blobs/supabase-store.ts';
import { detectImageType } from '../edge-api/src/lib/image-types.ts';

// `npm run move-images -- .data/files`: copies the images of a shop that kept them on disk (embedded
// mode) into Supabase Storage, each to the bucket of the same name under the same name, which is how
// the database refers to them. A file Storage already has is left alone, so it can run again.
// Needs SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY. docs/deploy-workers.md, "Moving an existing shop".

const root = process.argv[2];
const { SUPABASE_URL: url, SUPABASE_SERVICE_ROLE_KEY: serviceRoleKey } = process.env;
if (!root || !url || !serviceRoleKey) {
  console.error('Usage: SUPABASE_URL=... SUPABASE_SERVICE_ROLE_KEY=... npm run move-images -- <data dir>/files');
  process.exit(2);
}

// Links are not made here, so the link key does not matter.
const store = await createSupabaseBlobStore({ url, serviceRoleKey, urlSigningKey: crypto.getRandomValues(new Uint8Array(32)) });
const counts = { copied: 0, present: 0, skipped: 0, failed: 0 };

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

for (const bucket of buckets) {
  for await (const file of files(join(root, bucket))) {
    const name = relative(join(root, bucket), file).split(sep).join('/');
    const bytes = new Uint8Array(await readFile(file));
    const type = detectImageType(bytes);
    if (!parseBlobRef(`${bucket}/${name}`) || !type) {
      counts.skipped += 1;
      console.log(`skipped  ${bucket}/${name}: not an image the shop stores`);
      continue;
    }
    try {
      await store.put(bucket, name, bytes, type.mime);
      counts.copied += 1;
      console.log(`copied   ${bucket}/${name}`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/already exists/i.test(message)) {
        counts.present += 1;
        console.log(`present  ${bucket}/${name}`);
      } else {
        counts.failed += 1;
        console.log(`FAILED   ${bucket}/${name}: ${message}`);
      }
    }
  }
}
console.log(`\n${counts.copied} copied, ${counts.present} already there, ${counts.skipped} skipped, ${counts.failed} failed.`);
process.exit(counts.failed ? 1 : 0);
