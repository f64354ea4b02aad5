import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { ModalDialog } from '../../components/modal-dialog.tsx';
import { ModalFormActions } from '../../components/modal-form-actions.tsx';
import { useToast } from '../../components/toast.tsx';
import { getPublicDb } from '../../db/local-db.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { problemsFromAnswer, type FieldProblems } from '../../lib/form-problems.ts';
import { blankServicePrice, customerPricesBodyOf, servicePriceRowsOf, type ServicePriceRow } from '../../lib/price-rows.ts';

const LOAD_FAILED = "The customer's prices could not be loaded. Check your connection and try again.";
const SAVE_FAILED = "The customer's prices could not be saved. Try again.";

type Priced = Pick<Service, 'id' | 'title' | 'price'>;

function ServicePriceFields({
  row,
  index,
  services,
  problems,
  onChange,
  onRemove,
}: {
  row: ServicePriceRow;
  index: number;
  services: readonly Priced[];
  problems: FieldProblems;
  onChange: (row: ServicePriceRow) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const serviceProblem = problems[`services.${index}.serviceId`];
  const priceProblem = problems[`services.${index}.unitPrice`];
  const list = services.find((s) => s.id === row.serviceId)?.price;
  return (
    <li className="grid grid-cols-[1fr_auto] items-end gap-2 sm:grid-cols-[2fr_1fr_auto]">
      <div className="col-span-full sm:col-span-1">
        <label htmlFor={`${id}-service`} className="block text-sm font-semibold">
          Service
        </label>
        <select
          id={`${id}-service`}
          className={`select w-full ${serviceProblem ? 'select-error' : ''}`}
          value={row.serviceId}
          aria-invalid={serviceProblem ? true : undefined}
          aria-describedby={serviceProblem ? `${id}-service-error` : undefined}
          onChange={(event) => onChange({ ...row, serviceId: event.target.value })}
        >
          <option value="">Choose a service</option>
          {services.map((s) => (
            <option key={s.id} value={s.id}>
              {s.title} (list ${s.price})
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-price`} className="block text-sm font-semibold">
          Their unit price ($)
        </label>
        <input
          id={`${id}-price`}
          className={`input w-full ${priceProblem ? 'input-error' : ''}`}
          inputMode="decimal"
          value={row.unitPrice}
          aria-invalid={priceProblem ? true : undefined}
          aria-describedby={[list ? `${id}-list` : '', priceProblem ? `${id}-price-error` : ''].filter(Boolean).join(' ') || undefined}
          onChange={(event) => onChange({ ...row, unitPrice: event.target.value })}
        />
      </div>
      <button type="button" className="btn btn-ghost min-h-11 text-error" aria-label={`Remove price ${index + 1}`} onClick={onRemove}>
        Remove
      </button>
      {list && (
        <p id={`${id}-list`} className="col-span-full text-xs">
          List price ${list}
        </p>
      )}
      {serviceProblem && (
        <p id={`${id}-service-error`} className="col-span-full text-sm text-error">
          Service: {serviceProblem}
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

function PercentOffField({ value, problem, onChange }: { value: string; problem: string | undefined; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={`${id}-percent`} className="block font-semibold">
        Discount on every service (%)
      </label>
      <input
        id={`${id}-percent`}
        className={`input w-full sm:w-40 ${problem ? 'input-error' : ''}`}
        inputMode="decimal"
        value={value}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-percent-hint${problem ? ` ${id}-percent-error` : ''}`}
        onChange={(event) => onChange(event.target.value)}
      />
      <p id={`${id}-percent-hint`} className="mt-1 text-xs">
        Blank: none. A unit price set below for a service is used for it instead.
      </p>
      {problem && (
        <p id={`${id}-percent-error`} className="mt-1 text-sm text-error">
          Discount: {problem}
        </p>
      )}
    </div>
  );
}

function ServicePricesFieldset({
  rows,
  services,
  problems,
  onRows: update,
}: {
  rows: ServicePriceRow[];
  services: readonly Priced[];
  problems: FieldProblems;
  onRows: (rows: ServicePriceRow[]) => void;
}) {
  return (
    <fieldset className="space-y-3">
      <legend className="font-semibold">Unit price per service</legend>
      {rows.length === 0 && <p className="text-sm">None set.</p>}
      <ol className="space-y-3">
        {rows.map((row, index) => (
          <ServicePriceFields
            key={row.key}
            row={row}
            index={index}
            services={services}
            problems={problems}
            onChange={(changed) => update(rows.map((r) => (r.key === row.key ? changed : r)))}
            onRemove={() => update(rows.filter((r) => r.key !== row.key))}
          />
        ))}
      </ol>
      {problems.services && <p className="text-sm text-error">Services: {problems.services}</p>}
      <button type="button" className="btn btn-outline btn-sm min-h-11" onClick={() => update([...rows, blankServicePrice()])}>
        Add service price
      </button>
    </fieldset>
  );
}

/** Loads a customer's prices once. */
function useCustomerPrices(userId: string) {
  const [percentOff, setPercentOff] = useState<string | null>(null);
  const [rows, setRows] = useState<ServicePriceRow[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    unwrap(api.admin.pricing.users[':id'].$get({ param: { id: userId } }))
      .then((answer) => {
        if (!live) return;
        setPercentOff(answer.percentOff === null ? '' : String(answer.percentOff));
        setRows(servicePriceRowsOf(answer));
      })
      .catch(() => live && setLoadError(LOAD_FAILED));
    return () => {
      live = false;
    };
  }, [userId]);
  return { percentOff, setPercentOff, rows, setRows, loadError };
}

/**
 * A customer's own prices (issue 32 item 3, a reseller's): a percentage off every service and/or a unit
 * price per service. The lowest of list, tier and their price applies; they never stack.
 */
export function CustomerPricesDialog({ user, onClose }: { user: { uid: string; email: string }; onClose: () => void }) {
  const toast = useToast();
  const services = useLiveQuery(() => getPublicDb().services.orderBy('title').toArray(), []) ?? [];
  const { percentOff, setPercentOff, rows, setRows, loadError } = useCustomerPrices(user.uid);
  const [problems, setProblems] = useState<FieldProblems>({});
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const loaded = percentOff !== null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (percentOff === null) return;
    const checked = customerPricesBodyOf(percentOff, rows);
    if ('problems' in checked) return setProblems(checked.problems);
    setSaving(true);
    setSaveError(null);
    try {
      await unwrap(api.admin.pricing.users[':id'].$put({ param: { id: user.uid }, json: checked.body }));
      toast.success(`Prices of ${user.email} saved`);
      onClose();
    } catch (cause) {
      setProblems(problemsFromAnswer(cause));
      setSaveError(SAVE_FAILED);
    } finally {
      setSaving(false);
    }
  };
  const update = (next: ServicePriceRow[]) => {
    setRows(next);
    setProblems({});
  };

  return (
    <ModalDialog title={`Prices for ${user.email}`} onClose={onClose} busy={saving} className="max-w-2xl">
      <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        {loadError && (
          <p role="alert" className="alert alert-error">
            {loadError}
          </p>
        )}
        {!loaded && !loadError && <p className="text-sm">Loading prices…</p>}
        {loaded && (
          <>
            <PercentOffField
              value={percentOff}
              problem={problems.percentOff}
              onChange={(value) => {
                setPercentOff(value);
                setProblems({});
              }}
            />
            <ServicePricesFieldset rows={rows} services={services} problems={problems} onRows={update} />
          </>
        )}
        {saveError && (
          <p role="alert" className="alert alert-error">
            {saveError}
          </p>
        )}
        <ModalFormActions onCancel={onClose} busy={saving} submitLabel="Save prices" submitDisabled={!loaded} />
      </form>
    </ModalDialog>
  );
}
