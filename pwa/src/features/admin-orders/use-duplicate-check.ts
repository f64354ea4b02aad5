import { useCallback } from 'react';
import { api, unwrap } from '../../lib/api-client.ts';
import { useCredentialCheck, type CredentialQuery } from '../../lib/use-credential-check.ts';
import { selectDuplicateWarning } from './duplicate-warning.ts';

/**
 * The credentials modal's duplicate check (spec section 5): credentials about to be delivered against
 * those of other delivered orders, this one left out. What it answers: `useCredentialCheck`.
 */
export function useDuplicateCheck(email: string, password: string, orderId: string, online: boolean) {
  const fetch = useCallback((query: CredentialQuery) => unwrap(api.admin.credentials.check.$get({ query: { ...query, excludeOrderId: orderId } })), [orderId]);
  const { warning, checkNow, problem } = useCredentialCheck({ email, password, online, fetch, select: selectDuplicateWarning });
  return { warning, checkNow, problem };
}
