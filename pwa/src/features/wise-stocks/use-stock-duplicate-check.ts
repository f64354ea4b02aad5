import { api, unwrap } from '../../lib/api-client.ts';
import { useCredentialCheck, type CredentialQuery } from '../../lib/use-credential-check.ts';
import { selectStockDuplicateWarning } from './stock-duplicate-warning.ts';

const fetchCheck = (query: CredentialQuery) => unwrap(api['wise-stocks'].check.$get({ query }));

/**
 * Add Wise Stock's duplicate check: a stock about to be added against the stock and the delivered orders.
 * `learn` takes the check a refusal (409 duplicate_credentials) carried. What it answers: `useCredentialCheck`.
 */
export function useStockDuplicateCheck(email: string, password: string, online: boolean) {
  return useCredentialCheck({ email, password, online, fetch: fetchCheck, select: selectStockDuplicateWarning });
}
