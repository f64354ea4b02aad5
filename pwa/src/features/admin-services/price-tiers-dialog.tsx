import { useEffect, useId, useState, type FormEvent } from 'react';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { ModalDialog } from '../../components/modal-dialog.tsx';
import { ModalFormActions } from '../../components/modal-form-actions.tsx';
import { useToast } from '../../components/toast.tsx';
import { api, unwrap } from '../../lib/api-client.ts';
import { problemsFromAnswer, type FieldProblems } from '../../lib/form-problems.ts';
import { blankTier, tierRowsOf, tiersBody, type TierRow } from '../../lib/price-rows.ts';

const LOAD_FAILED = 'The tiers could not be loaded. Check your connection and try again.';
const SAVE_FAILED = 'The tiers could not be saved. Try again.';

function TierRowFields({
  row,
  index,
  problems,
  onChange,
  onRemove,
}: {
  row: TierRow;
  index: number;
  problems: FieldProblems;
  onChange: (row: TierRow) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const minProblem = problems[`tiers.${index}.minQuantity`];
  const priceProblem = problems[`tiers.${index}.unitPrice`];
  return (
    <li className="grid grid-cols-[1fr_1fr_auto] items-end gap-2">
      <div>
        <label htmlFor={`${id}-min`} className="block text-sm font-semibold">
          Buy at least
        </label>
        <input
          id={`${id}-min`}
          className={`input w-full ${minProblem ? 'input-error' : ''}`}
          inputMode="numeric"
          value={row.minQuantity}
          aria-invalid={minProblem ? true : undefined}
          aria-describedby={minProblem ? `${id}-min-error` : undefined}
          onChange={(event) => onChange({ ...row, minQuantity: event.target.value })}
        />
      </div>
      <div>
        <label htmlFor={`${id}-price`} className="block text-sm font-semibold">
          Unit price ($)
        </label>
        <input
          id={`${id}-price`}
          className={`input w-full ${priceProblem ? 'input-error' : ''}`}
          inputMode="decimal"
          value={row.unitPrice}
          aria-invalid={priceProblem ? true : undefined}
          aria-describedby={priceProblem ? `${id}-price-error` : undefined}
          onChange={(event) => onChange({ ...row, unitPrice: event.target.value })}
        />
      </div>
      <button type="button" className="btn btn-ghost min-h-11 text-error" aria-label={`Remove tier ${index + 1}`} onClick={onRemove}>
        Remove
      </button>
      {minProblem && (
        <p id={`${id}-min-error`} className="col-span-full text-sm text-error">
          Buy at least: {minProblem}
        </p>
      )}
      {priceProblem && (
        <p id={`${id}-price-error`} className="col-span-full text-sm text-error">
          Unit price: {priceProblem}
        </p>
      )}
    </li>
  );
}

/** Loads a service's tiers once; saves the whole set (decision 178: each save replaces the tiers). */
function useTiers(serviceId: string) {
  const [rows, setRows] = useState<TierRow[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    unwrap(api.admin.pricing.services[':id'].tiers.$get({ param: { id: serviceId } }))
      .then((answer) => live && setRows(tierRowsOf(answer.tiers)))
      .catch(() => live && setLoadError(LOAD_FAILED));
    return () => {
      live = false;
    };
  }, [serviceId]);
  return { rows, setRows, loadError };
}

/**
 * Quantity tiers of one service (issue 32 item 3): "buy 5 or more at $9 each". A customer pays the lowest of
 * the list price, the tier and their own price; orders already placed keep their price.
 */
export function PriceTiersDialog({ service, onClose }: { service: Pick<Service, 'id' | 'title' | 'price'>; onClose: () => void }) {
  const toast = useToast();
  const { rows, setRows, loadError } = useTiers(service.id);
  const [problems, setProblems] = useState<FieldProblems>({});
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!rows) return;
    const checked = tiersBody(rows);
    if ('problems' in checked) return setProblems(checked.problems);
    setSaving(true);
    setSaveError(null);
    try {
      await unwrap(api.admin.pricing.services[':id'].tiers.$put({ param: { id: service.id }, json: checked.body }));
      toast.success(`Quantity prices of ${service.title} saved`);
      onClose();
    } catch (cause) {
      setProblems(problemsFromAnswer(cause));
      setSaveError(SAVE_FAILED);
    } finally {
      setSaving(false);
    }
  };
  const update = (next: TierRow[]) => {
    setRows(next);
    setProblems({});
  };

  return (
    <ModalDialog title={`Quantity prices: ${service.title}`} onClose={onClose} busy={saving}>
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        <p className="text-sm">
          List price ${service.price} each. A customer buying at least a tier&apos;s quantity pays its unit price; the lowest price always applies.
        </p>
        {loadError && (
          <p role="alert" className="alert alert-error">
            {loadError}
          </p>
        )}
        {!rows && !loadError && <p className="text-sm">Loading tiers…</p>}
        {rows && rows.length === 0 && <p className="text-sm">No tiers: every quantity pays the list price.</p>}
        {rows && (
          <ol className="space-y-3" aria-label="Tiers">
            {rows.map((row, index) => (
              <TierRowFields
                key={row.key}
                row={row}
                index={index}
                problems={problems}
                onChange={(changed) => update(rows.map((r) => (r.key === row.key ? changed : r)))}
                onRemove={() => update(rows.filter((r) => r.key !== row.key))}
              />
            ))}
          </ol>
        )}
        {problems.tiers && <p className="text-sm text-error">Tiers: {problems.tiers}</p>}
        {rows && (
          <button type="button" className="btn btn-outline btn-sm min-h-11" disabled={rows.length >= 20} onClick={() => update([...rows, blankTier()])}>
            Add tier
          </button>
        )}
        {saveError && (
          <p role="alert" className="alert alert-error">
            {saveError}
          </p>
        )}
        <ModalFormActions onCancel={onClose} busy={saving} submitLabel="Save tiers" submitDisabled={!rows} />
      </form>
    </ModalDialog>
  );
}
