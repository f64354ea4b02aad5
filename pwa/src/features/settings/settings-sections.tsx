import type { Dispatch, SetStateAction } from 'react';
import { MAX_WALLETS } from '../../../../edge-api/src/contract/settings.ts';
import type { FieldProblems } from '../../lib/form-problems.ts';
import type { SectionProps } from './settings-field-kit.tsx';
import { addWallet, fieldGroups, removeWallet, setSocial, setText, setWallet, shiftWalletErrors, socialFields } from './settings-form.ts';

/** The plain text settings, a card per group (name, chat links, contact details...). */
export function TextFieldGroups({ settings, setSettings, kit }: SectionProps) {
  const { fieldId, clearError, errorProps, errorText, labelClass, cardClass } = kit;
  return fieldGroups.map((group, groupIndex) => (
    <section key={group.title} className={cardClass} aria-labelledby={fieldId(`group-${groupIndex}`)}>
      <div className="card-body gap-4">
        <h2 id={fieldId(`group-${groupIndex}`)} className="card-title">
          {group.title}
        </h2>
        {group.fields.map((field) => (
          <div key={field.key}>
            <label htmlFor={fieldId(field.key)} className={labelClass}>
              {field.label}
            </label>
            <input
              id={fieldId(field.key)}
              type={field.type}
              className="input w-full"
              value={settings[field.key]}
              onChange={(event) => {
                setSettings((current) => setText(current, field.key, event.target.value));
                clearError(field.key);
              }}
              {...errorProps(field.key)}
            />
            {field.hint && <p className="mt-1 text-xs text-base-content/80">{field.hint}</p>}
            {errorText(field.key, field.label)}
          </div>
        ))}
      </div>
    </section>
  ));
}

export function SocialLinksSection({ settings, setSettings, kit }: SectionProps) {
  const { fieldId, clearError, errorProps, errorText, labelClass, cardClass } = kit;
  return (
    <section className={cardClass} aria-labelledby={fieldId('social-heading')}>
      <div className="card-body gap-4">
        <h2 id={fieldId('social-heading')} className="card-title">
          Social links
        </h2>
        <p className="text-sm text-base-content/80">Leave a link empty to show its button without a target.</p>
        <div className="grid gap-4 sm:grid-cols-2">
          {socialFields.map((field) => {
            const path = `socialLinks.${field.key}`;
            return (
              <div key={field.key}>
                <label htmlFor={fieldId(path)} className={labelClass}>
                  {field.label}
                </label>
                <input
                  id={fieldId(path)}
                  type="url"
                  className="input w-full"
                  value={settings.socialLinks[field.key]}
                  onChange={(event) => {
                    setSettings((current) => setSocial(current, field.key, event.target.value));
                    clearError(path);
                  }}
                  {...errorProps(path)}
                />
                {errorText(path, field.label)}
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}

export function StockSection({ settings, setSettings, kit }: SectionProps) {
  const { fieldId, clearError, errorProps, errorText, labelClass, cardClass } = kit;
  return (
    <section className={cardClass} aria-labelledby={fieldId('stock-heading')}>
      <div className="card-body gap-4">
        <h2 id={fieldId('stock-heading')} className="card-title">
          Stock
        </h2>
        <div>
          <label htmlFor={fieldId('lowStockThreshold')} className={labelClass}>
            Low-stock threshold
          </label>
          <input
            id={fieldId('lowStockThreshold')}
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            className="input w-full"
            value={Number.isNaN(settings.lowStockThreshold) ? '' : (settings.lowStockThreshold ?? 0)}
            onChange={(event) => {
              const text = event.target.value;
              setSettings((current) => ({ ...current, lowStockThreshold: text === '' ? Number.NaN : Number(text) }));
              clearError('lowStockThreshold');
            }}
            {...errorProps('lowStockThreshold')}
          />
          <p className="mt-1 text-xs text-base-content/80">
            Staff are warned when fewer Wise stock accounts than this are available; 0 never warns. A service can set its own.
          </p>
          {errorText('lowStockThreshold', 'Low-stock threshold')}
        </div>
      </div>
    </section>
  );
}

interface WalletRowProps extends SectionProps {
  index: number;
  setErrors: Dispatch<SetStateAction<FieldProblems>>;
}

/** One wallet: its name, its number and a button that removes it. */
function WalletRow({ settings, setSettings, kit, index, setErrors }: WalletRowProps) {
  const { fieldId, clearError, errorProps, errorText, labelClass } = kit;
  const wallet = settings.wallets[index]!;
  const namePath = `wallets.${index}.name`;
  const numberPath = `wallets.${index}.number`;
  return (
    <li className="flex flex-wrap items-start gap-2">
      <div className="min-w-40 flex-1">
        <label htmlFor={fieldId(namePath)} className={labelClass}>
          Wallet {index + 1} name
        </label>
        <input
          id={fieldId(namePath)}
          className="input w-full"
          value={wallet.name}
          onChange={(event) => {
            setSettings((current) => setWallet(current, index, 'name', event.target.value));
            clearError(namePath);
          }}
          {...errorProps(namePath)}
        />
        {errorText(namePath, 'Name')}
      </div>
      <div className="min-w-40 flex-1">
        <label htmlFor={fieldId(numberPath)} className={labelClass}>
          Wallet {index + 1} number
        </label>
        <input
          id={fieldId(numberPath)}
          className="input w-full"
          inputMode="tel"
          value={wallet.number}
          onChange={(event) => {
            setSettings((current) => setWallet(current, index, 'number', event.target.value));
            clearError(numberPath);
          }}
          {...errorProps(numberPath)}
        />
        {errorText(numberPath, 'Number')}
      </div>
      <button
        type="button"
        className="btn btn-ghost btn-square mt-6 text-error"
        aria-label={`Remove wallet ${index + 1}`}
        onClick={() => {
          setSettings((current) => removeWallet(current, index));
          setErrors((current) => shiftWalletErrors(current, index));
        }}
      >
        <span aria-hidden="true">✕</span>
      </button>
    </li>
  );
}

export function WalletsSection({
  settings,
  setSettings,
  kit,
  errors,
  setErrors,
}: SectionProps & { errors: FieldProblems; setErrors: WalletRowProps['setErrors'] }) {
  const { fieldId, cardClass } = kit;
  return (
    <section className={cardClass} aria-labelledby={fieldId('wallets-heading')}>
      <div className="card-body gap-4">
        <h2 id={fieldId('wallets-heading')} className="card-title">
          Mobile-money wallets
        </h2>
        <p className="text-sm text-base-content/80">The receiving numbers shown on the proxy page.</p>
        {errors.wallets && <p className="text-sm text-error">Wallets {errors.wallets}</p>}
        <ul className="space-y-3">
          {settings.wallets.map((_wallet, index) => (
            <WalletRow key={index} settings={settings} setSettings={setSettings} kit={kit} index={index} setErrors={setErrors} />
          ))}
        </ul>
        <button
          type="button"
          className="btn btn-outline btn-sm w-fit"
          disabled={settings.wallets.length >= MAX_WALLETS}
          onClick={() => setSettings((current) => addWallet(current))}
        >
          <span aria-hidden="true">+</span> Add Wallet
        </button>
      </div>
    </section>
  );
}
