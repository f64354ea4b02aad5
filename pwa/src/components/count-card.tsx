/** One figure with its label, as the dashboard's list screens show their totals; undefined while loading. */
export function CountCard({ label, value }: { label: string; value: number | undefined }) {
  return (
    <div className="stat rounded-box border border-base-300 bg-base-100 shadow-sm">
      <p className="stat-title text-base-content/80">{label}</p>
      <p className="stat-value text-3xl">
        {value ?? (
          <>
            <span className="loading loading-dots loading-sm" aria-hidden="true" />
            <span className="sr-only">Loading</span>
          </>
        )}
      </p>
    </div>
  );
}
