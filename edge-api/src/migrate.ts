import { parseEnv } from './env.ts';
import { runMigrate } from './migrate-command.ts';

// `npm run migrate`: the migrations, then the move of inline images left by earlier versions into the
// image store (migrate-command.ts). Exit status 0: done; 3: migrated, but inline images are left and
// stderr says what to set; 1: anything else, said on stderr.
try {
  process.exitCode = await runMigrate(parseEnv(process.env));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
