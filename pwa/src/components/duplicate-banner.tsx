/** What a duplicate check's banner shows: the order credentials modal's and Add Wise Stock's alike. */
export interface DuplicateBannerWarning {
  kind: 'none' | 'exact' | 'both' | 'email' | 'password';
  /** The heading, or null when there is no banner. */
  title: string | null;
  lines: string[];
}

/** The duplicate check's banner (spec section 5, texts exact): an error for exact duplicates, else a warning; nothing without a title. */
export function DuplicateBanner({ id, warning, className = '' }: { id: string; warning: DuplicateBannerWarning; className?: string }) {
  if (!warning.title) return null;
  return (
    <div id={id} role="alert" className={`alert ${className} ${warning.kind === 'exact' ? 'alert-error' : 'alert-warning'}`}>
      <div>
        <p className="font-semibold">{warning.title}</p>
        {warning.lines.map((line) => (
          <p key={line} className="text-sm">
            {line}
          </p>
        ))}
      </div>
    </div>
  );
}
