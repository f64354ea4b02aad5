import { dismissFailed, type MutationHandle } from '../db/mutations.ts';
import { serverOutcome } from '../db/server-outcome.ts';
import type { Toast } from './toast.tsx';

export interface QueuedChangeEnd {
  toast: Toast;
  /** Said once the server has confirmed the change. */
  confirmed: string;
  /** Said when the change waits on this device for the connection (or for a slow answer). */
  savedOffline: string;
  close: () => void;
}

/**
 * The end of a form whose change is queued in the outbox: once it is saved on the device, waits for the
 * server's verdict (not forever), says which it was and closes. A refusal is rethrown for the form to show,
 * and its failed outbox entry dismissed: the form still holds everything, so it is not listed twice.
 */
export async function finishQueuedChange(userId: string, handle: MutationHandle, end: QueuedChangeEnd): Promise<void> {
  try {
    await handle.saved;
    const outcome = await serverOutcome(handle.done);
    if (outcome === 'confirmed') end.toast.success(end.confirmed);
    else end.toast.info(end.savedOffline, 4000);
    end.close();
  } catch (cause) {
    await dismissFailed(userId, handle.id).catch(() => undefined);
    throw cause;
  }
}
