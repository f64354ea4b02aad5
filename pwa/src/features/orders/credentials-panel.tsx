import { useState } from 'react';
import { ExternalLink } from '../../components/external-link.tsx';
import type { OrderViews } from '../../../../edge-api/src/contract/orders.ts';
import { CopyButton } from '../../components/copy-button.tsx';
import { useSecret, VaultDialog } from '../../components/vault-lock.tsx';
import { formatDateTime } from '../../lib/format.ts';

const MASKED_PASSWORD = '••••••••••••';

const securityTips = [
  'Change the password right after your first login.',
  'Enable two-factor authentication on the account.',
  'Do not share these credentials with anyone.',
  'Contact support if anything does not work as expected.',
];

/** "Viewed 3 times, first on …": the customer's own reveals of the password, as the server logged them (decision 066). */
export function viewsSummary(views: OrderViews): string {
  const first = `${formatDateTime(views.firstAt)}${views.firstDevice ? ` (${views.firstDevice})` : ''}`;
  return views.count === 1 ? `Viewed once, on ${first}` : `Viewed ${views.count} times, first on ${first}`;
}

/** The password's Show/Hide/Unlock state: sealed by the device's vault, it is opened at Show, after an unlock if locked (decision 068). */
function usePasswordReveal(password: string | undefined, onReveal: (() => void) | undefined) {
  const [opened, setRevealed] = useState<string | null>(null);
  const secret = useSecret(password);
  const [unlocking, setUnlocking] = useState(false);
  // Hidden again when the vault locks.
  const revealed = secret.locked ? null : opened;
  const show = async () => {
    try {
      setRevealed(await secret.open());
      onReveal?.();
    } catch (error) {
      console.warn('Could not open the password', error);
      setUnlocking(true);
    }
  };

  const toggle = () => {
    if (revealed !== null) setRevealed(null);
    else if (secret.locked) setUnlocking(true);
    else if (!secret.sealed) {
      onReveal?.();
      setRevealed(password ?? null);
    } else void show();
  };
  return { secret, revealed, unlocking, setUnlocking, show, toggle };
}

type PasswordReveal = ReturnType<typeof usePasswordReveal>;

function PasswordRow({ password, views, reveal }: { password: string; views: OrderViews | undefined; reveal: PasswordReveal }) {
  const { secret, revealed, unlocking, setUnlocking, show, toggle } = reveal;
  return (
    <div>
      <dt className="text-sm font-semibold">Password</dt>
      <dd className="mt-1 flex flex-wrap items-center gap-2">
        <span className="font-mono break-all" data-testid="delivered-password">
          {revealed ?? MASKED_PASSWORD}
        </span>
        <button type="button" className="btn btn-outline btn-sm" aria-pressed={revealed !== null} onClick={toggle}>
          {revealed !== null ? 'Hide' : secret.locked ? 'Unlock' : 'Show'}
          <span className="sr-only">{secret.locked && revealed === null ? ' to show the password' : ' password'}</span>
        </button>
        {(!secret.sealed || revealed !== null) && <CopyButton value={revealed ?? password} label="Password" />}
        {unlocking && <VaultDialog mode="unlock" onClose={() => setUnlocking(false)} onDone={() => void show()} />}
      </dd>
      <dd className="mt-1 text-sm text-base-content/70" data-testid="password-views">
        {views ? viewsSummary(views) : 'Not viewed yet'}
      </dd>
    </div>
  );
}

function ProofImage({ proofImage, title, failed, onFailed }: { proofImage: string; title: string; failed: boolean; onFailed: () => void }) {
  return (
    <div className="mt-4">
      <p className="text-sm font-semibold">Proof</p>
      {failed ? (
        <p className="mt-1 text-sm">Image failed to load. Contact support for proof.</p>
      ) : (
        <ExternalLink href={proofImage} className="mt-1 inline-block" aria-label="Open the proof image">
          <img
            src={proofImage}
            alt={`Proof of delivery for ${title}`}
            className="max-h-48 rounded-box border border-base-300 object-contain"
            onError={onFailed}
          />
        </ExternalLink>
      )}
    </div>
  );
}

/** Delivered account credentials, read from this device's database so they show offline too. */
export function CredentialsPanel({
  email,
  password,
  passwordUnreadable,
  inVault,
  proofImage,
  title,
  orderNumber,
  views,
  onReveal,
}: {
  email: string;
  password?: string;
  /** The server holds a password it cannot read right now (its data key does not match). */
  passwordUnreadable?: boolean;
  /** The account keeps its passwords in a PIN vault and this device has neither its own copy nor a proof (decision 182). */
  inVault?: boolean;
  proofImage?: string;
  title: string;
  /** The order's short number, so each order's panel has its own name on a page of several. */
  orderNumber?: string;
  /** How often the password was shown, and first when and where. */
  views?: OrderViews;
  /** Called at each Show of the password, so the reveal is logged (decision 066). */
  onReveal?: () => void;
}) {
  const reveal = usePasswordReveal(password, onReveal);
  const [imageFailed, setImageFailed] = useState(false);

  return (
    <section
      className="rounded-box border border-success bg-base-100 p-4"
      aria-label={`Credentials for ${title}${orderNumber ? `, order #${orderNumber}` : ''}`}
    >
      <h3 className="mb-3 flex items-center gap-2 text-lg font-bold">
        <svg viewBox="0 0 24 24" className="h-5 w-5 text-success" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <rect x="4" y="11" width="16" height="10" rx="2" />
          <path d="M8 11V7a4 4 0 0 1 8 0v4" />
        </svg>
        Your Account Credentials
      </h3>
      <dl className="space-y-3">
        <div>
          <dt className="text-sm font-semibold">Email</dt>
          <dd className="mt-1 flex flex-wrap items-center gap-2">
            <span className="font-mono break-all">{email}</span>
            <CopyButton value={email} label="Email" />
          </dd>
        </div>
        {password !== undefined && password !== '' && <PasswordRow password={password} views={views} reveal={reveal} />}
        {inVault && (password === undefined || password === '') && (
          <div>
            <dt className="text-sm font-semibold">Password</dt>
            <dd className="mt-1 text-sm" data-testid="delivered-password-in-vault">
              Your passwords are locked with a PIN on another device. Sign in again on this device to get this one here.
            </dd>
          </div>
        )}
        {passwordUnreadable && (
          <div>
            <dt className="text-sm font-semibold">Password</dt>
            <dd className="mt-1 text-sm" data-testid="delivered-password-unreadable">
              The password cannot be shown right now. Please contact support.
            </dd>
          </div>
        )}
      </dl>

      {proofImage && <ProofImage proofImage={proofImage} title={title} failed={imageFailed} onFailed={() => setImageFailed(true)} />}

      <div className="mt-4 rounded-box bg-base-200 p-3">
        <p className="font-semibold">Security instructions</p>
        <ul className="mt-1 list-disc space-y-1 pl-5 text-sm">
          {securityTips.map((tip) => (
            <li key={tip}>{tip}</li>
          ))}
        </ul>
      </div>
    </section>
  );
}
