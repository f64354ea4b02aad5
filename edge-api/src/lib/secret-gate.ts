/**
 * What an order's owner receives of its delivered secrets in this request (decision 182), decided once per
 * request by middleware/vault-gate.ts and read by the order presenter (presenters/orders.ts) through AsyncLocalStorage, so every
 * route presenting an owner's order is covered without passing anything along:
 * - sealed: the request names (X-Vault-Id) an active vault of the owner: each secret sealed to its public key
 *   (even when unlocked: a device with a vault never receives them in clear);
 * - clear: the account keeps no device vault, or the request carries a valid unlock token (a device without a vault);
 * - withheld: the account has a vault and the request proves nothing: the secrets are left out.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export type SecretGate = { kind: 'clear' } | { kind: 'sealed'; seal(value: unknown): Promise<string>; unlocked: boolean } | { kind: 'withheld' };

/** Whether this request proved the PIN (or the account keeps no vault): what a delivered file's download needs (decision 183). */
export const gateOpens = (gate: SecretGate) => gate.kind === 'clear' || (gate.kind === 'sealed' && gate.unlocked);

export interface GateScope {
  /** The signed-in caller of this request. */
  userId: string;
  /** The gate for an owner: the caller's (with the request's headers), or another owner's (without them). */
  gateFor(ownerId: string): Promise<SecretGate>;
}

const scope = new AsyncLocalStorage<GateScope>();

export const runWithGate = <T>(gate: GateScope, work: () => T): T => scope.run(gate, work);

/** The gate for an owner's order in this request; outside a request (a job, a test of the presenter) nothing is gated. */
export function ownerSecretGate(ownerId: string): Promise<SecretGate> {
  const current = scope.getStore();
  return current ? current.gateFor(ownerId) : Promise.resolve({ kind: 'clear' });
}
