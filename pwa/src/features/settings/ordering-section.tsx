import type { SectionProps } from './settings-field-kit.tsx';

/** Whether a signed-out visitor may order with just an email (decision 177). */
export function OrderingSection({ settings, setSettings, kit }: SectionProps) {
  const { fieldId, cardClass } = kit;
  return (
    <section className={cardClass} aria-labelledby={fieldId('ordering-heading')}>
      <div className="card-body gap-4">
        <h2 id={fieldId('ordering-heading')} className="card-title">
          Ordering
        </h2>
        <label htmlFor={fieldId('guestCheckout')} className="flex cursor-pointer items-start gap-3">
          <input
            id={fieldId('guestCheckout')}
            type="checkbox"
            className="toggle toggle-primary mt-1"
            checked={settings.guestCheckout === true}
            onChange={(event) => {
              const checked = event.target.checked;
              setSettings((current) => ({ ...current, guestCheckout: checked }));
            }}
          />
          <span>
            <span className="block font-medium">Order with just an email</span>
            <span className="block text-xs text-base-content/80">
              A signed-out visitor gives only an email when ordering and gets a sign-in link by mail. Off: visitors create an account first.
            </span>
          </span>
        </label>
      </div>
    </section>
  );
}
