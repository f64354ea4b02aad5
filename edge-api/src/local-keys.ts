import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateSigningKey, type StoredSigningKey } from './auth/signing-key.ts';
import { generateKey } from './lib/secrets.ts';
import { generateVapidKeys, type VapidKeys } from './push/vapid.ts';

/** The keys embedded mode makes on its first start and keeps in DATA_DIR (never committed, never logged). */
export interface LocalKeys {
  signingKey: StoredSigningKey;
  serviceRoleKey: string;
  credentialsKey: string;
  blindIndexKey: string;
  fileSigningKey: string;
  /** Web push (decision 067); added to an older keys.json on the next start. */
  vapid: VapidKeys;
}

export async function loadOrCreateLocalKeys(dataDir: string): Promise<LocalKeys> {
  const file = join(dataDir, 'keys.json');
  try {
    const keys = JSON.parse(await readFile(file, 'utf8')) as LocalKeys;
    // Loosened by a copy or an unzip: the keys read every delivered password, so the owner's alone.
    await chmod(file, 0o600);
    if (!keys.vapid) {
      keys.vapid = await generateVapidKeys();
      await writeFile(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
    }
    return keys;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const keys: LocalKeys = {
    signingKey: await generateSigningKey(),
    serviceRoleKey: `sb_secret_${generateKey().replace(/[^A-Za-z0-9]/g, '')}`,
    credentialsKey: generateKey(),
    blindIndexKey: generateKey(),
    fileSigningKey: generateKey(),
    vapid: await generateVapidKeys(),
  };
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFile(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
  await chmod(file, 0o600);
  return keys;
}
