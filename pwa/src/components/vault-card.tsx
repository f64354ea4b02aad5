import { useEffect, useState } from 'react';
import { passkeyPrfSupported } from '../lib/passkey-prf.ts';
import { useVaultState, VaultDialog } from './vault-lock.tsx';
import type { PinDialogMode } from './vault-pin-dialog.tsx';
import { lockVault } from '../db/vault-session.ts';

/** The profile's switch for this device's PIN lock on delivered passwords (decision 068). */
export function VaultCard() {
  const { on, unlocked, passkey } = useVaultState();
  const [dialog, setDialog] = useState<PinDialogMode | null>(null);
  // A passkey is offered only where the browser can evaluate its PRF extension.
  const [prf, setPrf] = useState(false);
  useEffect(() => {
    void passkeyPrfSupported().then(setPrf);
  }, []);
  if (on === undefined) return null;
  return (
    <section aria-labelledby="vault-card-title" className="card border border-base-300 bg-base-100 shadow-md" data-testid="vault-card">
      <div className="card-body">
        <h2 id="vault-card-title" className="card-title">
          PIN Lock for Passwords
        </h2>
        <p className="text-base-content/80">
          {on
            ? `On for this device: delivered passwords are kept encrypted and showing one asks for your PIN${passkey ? ' or passkey' : ''}. ${unlocked ? 'Unlocked now; it locks again after 5 minutes unused.' : 'Locked now.'}`
            : 'Keep the delivered passwords on this device encrypted, so someone who picks up your unlocked phone cannot read them. Showing a password then asks for a PIN, online or offline.'}
        </p>
        <div className="flex flex-wrap gap-2">
          {!on && (
            <button type="button" className="btn btn-primary" onClick={() => setDialog('enable')}>
              Turn On PIN Lock
            </button>
          )}
          {on && unlocked && (
            <button type="button" className="btn btn-outline" onClick={lockVault}>
              Lock Now
            </button>
          )}
          {on && !unlocked && (
            <button type="button" className="btn btn-outline" onClick={() => setDialog('unlock')}>
              Unlock
            </button>
          )}
          {on && prf && !passkey && (
            <button type="button" className="btn btn-outline" onClick={() => setDialog('passkey')}>
              Add Passkey Unlock
            </button>
          )}
          {on && (
            <button type="button" className="btn btn-ghost" onClick={() => setDialog('disable')}>
              Turn Off PIN Lock
            </button>
          )}
        </div>
      </div>
      {dialog && <VaultDialog mode={dialog} onClose={() => setDialog(null)} />}
    </section>
  );
}
