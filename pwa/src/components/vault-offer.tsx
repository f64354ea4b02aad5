import { useState } from 'react';
import { useVaultState, VaultDialog } from './vault-lock.tsx';

const DISMISSED_KEY = 'storefront-vault-offer-dismissed';

function dismissedBefore(): boolean {
  try {
    return localStorage.getItem(DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

/** Offered once passwords were delivered to this device, until turned on or declined (decision 068); never in the way. */
export function VaultOffer() {
  const { on } = useVaultState();
  const [dismissed, setDismissed] = useState(dismissedBefore);
  const [asking, setAsking] = useState(false);
  if (dismissed || (on !== false && !asking)) return null;
  const dismiss = () => {
    try {
      localStorage.setItem(DISMISSED_KEY, '1');
    } catch {
      // Private mode: offered again next visit.
    }
    setDismissed(true);
  };
  // Once the vault record is written the offer goes, but the dialog (in the same place, so it keeps its state)
  // stays until switching on has finished, the database rewrite included (decision 184): closed earlier, it
  // invited a reload in the middle.
  return (
    <>
      {on === false && (
        <section
          aria-labelledby="vault-offer-title"
          className="alert mb-6 flex flex-col items-start gap-2 sm:flex-row sm:items-center"
          data-testid="vault-offer"
        >
          <div className="flex-1">
            <h2 id="vault-offer-title" className="font-bold">
              Lock your passwords with a PIN?
            </h2>
            <p className="text-sm">Anyone holding this unlocked device can read delivered passwords. With a PIN lock they stay encrypted here.</p>
          </div>
          <div className="flex gap-2">
            <button type="button" className="btn btn-primary btn-sm" onClick={() => setAsking(true)}>
              Set a PIN
            </button>
            <button type="button" className="btn btn-ghost btn-sm" onClick={dismiss}>
              Not Now
            </button>
          </div>
        </section>
      )}
      {asking && <VaultDialog mode="enable" onClose={() => setAsking(false)} />}
    </>
  );
}
