/**
 * Pushes: the outbox's pending entries, oldest first, each uploaded by its mutator. The server's answer
 * replaces the optimistic row; a refusal marks the entry failed for the person to retry or dismiss, and
 * undoes it on this device. Nothing is dropped without the person deciding.
 */
import type { Order } from '../../../edge-api/src/contract/orders.ts';
import type { WiseStock } from '../../../edge-api/src/contract/wise-stocks.ts';
import type { Ticket } from '../../../edge-api/src/contract/tickets.ts';
import { isApiAnswer, isTransient, type AppError } from '../lib/app-error.ts';
import type { OutboxEntry, UserDb } from './local-db.ts';
import { mutatorOf, type ServerRow } from './mutators.ts';
import { entryTargets, failsOnServerError, pendingEntries, replaceServerCopy, sameRef, settleEntry, takeServerCopy } from './outbox.ts';
import { withSession, type SyncTransport } from './sync-transport.ts';
import { checkVaultSeal, openArgs, sealRows, withVaultSeal } from './vault-seal.ts';

/** Sends pending entries oldest first; stops at the first one that cannot get an answer (and throws its failure). */
export async function push(transport: SyncTransport, userId: string, db: UserDb): Promise<void> {
  if ((await transport.sessionUserId()) !== userId) return;
  for (const queued of await pendingEntries(db)) {
    const entry = await db.outbox.get(queued.id);
    if (!entry || entry.status !== 'pending') continue;
    // A secret typed while the vault was on waits sealed: it goes out once the vault is unlocked (decision 068).
    const args = await openArgs(db, entry.name, entry.args);
    if (!args) return;
    await db.outbox.update(entry.id, { attempts: entry.attempts + 1 });
    let answer: ServerRow;
    try {
      answer = await withSession(transport, () => mutatorOf(entry.name).upload(transport.api, args, entry.id));
    } catch (error) {
      // An answer that is a server error fails a change a screen is waiting on, as a refusal does.
      if (isApiAnswer(error) && (!isTransient(error) || failsOnServerError(entry.id))) {
        await failEntry(db, entry, error);
        settleEntry(entry.id, error);
        continue;
      }
      throw error;
    }
    await confirmEntry(db, entry, answer);
    settleEntry(entry.id);
  }
}

const newer = <T extends { version: number }>(a: T | null | undefined, b: T | null | undefined) => (!a ? b : !b ? a : b.version > a.version ? b : a);

/** The server took the change: drop the entry, and let the server's row replace the optimistic one. */
function confirmEntry(db: UserDb, entry: OutboxEntry, received: ServerRow) {
  return withVaultSeal(db, async (seal) => {
    const [row] = (await sealRows(seal, received.ref.table, [received.row]))!;
    await writeConfirmed(db, entry, { ref: received.ref, row: row! }, () => checkVaultSeal(db, seal));
  });
}

async function writeConfirmed(db: UserDb, entry: OutboxEntry, answer: ServerRow, checkSeal: () => Promise<void>) {
  await db.transaction('rw', [db.outbox, db.orders, db.wiseStocks, db.tickets, db.meta], async () => {
    await checkSeal();
    await db.outbox.delete(entry.id);
    const pending = await db.outbox.where('status').equals('pending').toArray();
    for (const other of pending) {
      // Later changes to the same row were made on top of this one: they now expect the server's new version.
      if (sameRef(entryTargets(other)[0]!, answer.ref) && typeof other.args.version === 'number') {
        await db.outbox.update(other.id, { args: { ...other.args, version: answer.row.version } });
      }
    }
    for (const ref of entryTargets(entry)) {
      const fromAnswer = sameRef(ref, answer.ref) ? answer.row : undefined;
      const stillQueued = pending.some((other) => entryTargets(other).some((r) => sameRef(r, ref)));
      const table = db.table(ref.table);
      if (stillQueued) {
        if (fromAnswer) await replaceServerCopy(db, ref, fromAnswer);
        continue;
      }
      const copy = await takeServerCopy(db, ref);
      const current = (await table.get(ref.id)) as Order | WiseStock | Ticket | undefined;
      const latest = fromAnswer ? newer(fromAnswer, copy?.row) : copy?.row && current && copy.row.version > current.version ? copy.row : undefined;
      if (latest) await table.put(latest);
    }
  });
}

/** The server refused the change: keep it, marked failed with the server's reason, and undo it locally. */
async function failEntry(db: UserDb, entry: OutboxEntry, error: AppError) {
  await db.transaction('rw', [db.outbox, db.orders, db.wiseStocks, db.tickets, db.meta], async () => {
    await db.outbox.update(entry.id, { status: 'failed', error: error.message });
    const pending = await db.outbox.where('status').equals('pending').toArray();
    for (const ref of entryTargets(entry)) {
      if (pending.some((other) => entryTargets(other).some((r) => sameRef(r, ref)))) continue;
      const copy = await takeServerCopy(db, ref);
      if (!copy) continue;
      if (copy.row) await db.table(ref.table).put(copy.row);
      else await db.table(ref.table).delete(ref.id);
    }
  });
}
