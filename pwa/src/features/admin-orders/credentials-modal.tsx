import { useId } from 'react';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import { DuplicateBanner } from '../../components/duplicate-banner.tsx';
import { DuplicateCheckNotice } from '../../components/duplicate-check-notice.tsx';
import { ModalDialog } from '../../components/modal-dialog.tsx';
import { ModalFormActions } from '../../components/modal-form-actions.tsx';
import { PasswordInput } from '../../components/password-input.tsx';
import { useDeviceQuery } from '../../db/device.ts';
import { describedBy } from '../../lib/described-by.ts';
import { shortOrderId } from '../../lib/order-rules.ts';
import { EmailField, ProofField } from './credentials-fields.tsx';
import type { DuplicateWarning } from './duplicate-warning.ts';
import { OtherDeliveryModal } from './other-delivery-modal.tsx';
import { StockChoice } from './other-delivery-fields.tsx';
import { StockPicker } from './stock-picker.tsx';
import { useAccountDelivery, type AccountDeliveryProps, type useCredentialFields } from './use-account-delivery.ts';
import type { useProofUpload } from './use-proof-upload.ts';

/** Under the notice of a duplicate check that did not run (decision 076): approving stays possible, as offline. */
export const UNCHECKED_MESSAGE = 'Approving now delivers them without the duplicate warning: make sure they are not in another order first.';

export interface CredentialsModalProps extends AccountDeliveryProps {
  /** Replace credentials already delivered (a problem report, decision 063): the earlier ones go to the order's history. */
  replace?: boolean;
}

/**
 * 'Add WISE Credentials': typed credentials with an optional proof image, or an account from stock.
 * Nothing is saved until 'Approve & Deliver'; closing discards everything. The delivery is queued in the
 * outbox, so it works offline and is sent when the connection returns.
 */
export function CredentialsModal(props: CredentialsModalProps) {
  // What the order's service delivers (decision 069), from this device's copy of the services.
  const looked = useDeviceQuery(async (device) => ({ service: await device.getPublicDb().services.get(props.order.productId) }), [props.order.productId]);
  // Until the device answers (a moment), the account form; an order already delivered names its own kind.
  const kind = looked?.service?.deliveryKind ?? props.order.deliveryKind ?? 'account';
  if (kind !== 'account') return <OtherDeliveryModal kind={kind} {...props} />;
  return <AccountCredentialsModal {...props} />;
}

/** Which order, for whom, and what a replacement does. */
function OrderIntro({ order, replace }: { order: Order; replace: boolean }) {
  return (
    <>
      <p className="mb-4 text-sm text-base-content/80">
        Order <span className="font-mono">#{shortOrderId(order.id)}</span>: {order.title} for {order.userName || order.userEmail}
        {order.userName && <span className="text-base-content/70"> ({order.userEmail})</span>}
      </p>

      {replace && (
        <p className="mb-4 rounded-box bg-base-200 p-3 text-sm">
          Replacing <span className="font-mono">{order.wiseEmail}</span>: it stays in the order&apos;s history, and if it came from stock, that stock is marked
          faulty and never sold again.
        </p>
      )}
    </>
  );
}

interface TypedCredentialsProps {
  fields: ReturnType<typeof useCredentialFields>;
  warning: DuplicateWarning;
  upload: ReturnType<typeof useProofUpload>;
  online: boolean;
}

/** The email, password and proof image typed by hand (a stock picked above fills the first two). */
function TypedCredentials({ fields, warning, upload, online }: TypedCredentialsProps) {
  const { email, setEmail, password, setPassword, stock, type } = fields;
  return (
    <>
      <EmailField value={email} onChange={(value) => type(() => setEmail(value))} note={warning.emailInline} />
      <PasswordInput
        label="WISE Password"
        className="mb-1"
        required
        autoComplete="new-password"
        value={password}
        onChange={(event) => type(() => setPassword(event.target.value))}
        hint={warning.passwordInline ?? undefined}
      />
      <ProofField upload={upload} fromStock={stock !== null} online={online} />
    </>
  );
}

function AccountCredentialsModal(props: CredentialsModalProps) {
  const { order, online, onClose, replace = false } = props;
  const bannerId = useId();
  const problemId = useId();
  const { fields, own, stocks, pickStock, check, upload, error, submitting, filled, submit } = useAccountDelivery(props);
  const { warning, problem } = check;

  return (
    <ModalDialog title={replace ? 'Replace WISE Credentials' : 'Add WISE Credentials'} onClose={onClose} className="max-w-3xl">
      <OrderIntro order={order} replace={replace} />
      {own.stock && own.stock.length > 0 && (
        <StockChoice stock={own.stock} value={own.id} onChange={own.choose} typedChoice="Type it in, or pick from the WISE stock below" />
      )}
      {!own.id && <StockPicker stocks={stocks} picked={fields.stock} onPick={pickStock} onTypeInstead={fields.clearStock} />}

      <form noValidate onSubmit={(event) => void submit(event)} aria-describedby={describedBy(warning.title && bannerId, !own.id && problem && problemId)}>
        <DuplicateBanner id={bannerId} warning={warning} className="mb-4" />
        {!own.id && <DuplicateCheckNotice id={problemId} problem={problem} consequence={UNCHECKED_MESSAGE} className="mb-4" />}
        {!online && (
          <p className="mb-3 text-sm text-base-content/70">
            Offline: duplicate checks and image uploads need a connection. The delivery is saved on this device and sent when the connection returns.
          </p>
        )}

        {!own.id && <TypedCredentials fields={fields} warning={warning} upload={upload} online={online} />}

        {error && (
          <p role="alert" className="alert alert-error mb-3 text-sm">
            {error}
          </p>
        )}

        <ModalFormActions
          onCancel={onClose}
          busy={submitting}
          submitLabel={warning.approveLabel}
          submitDisabled={!filled || upload.uploading}
          tone={warning.kind === 'exact' ? 'danger' : 'primary'}
        />
      </form>
    </ModalDialog>
  );
}
