/**
 * "Load more" under a list paged by the server (decision 234): shown while another page follows; busy
 * while it comes. `what` names the rows for screen readers ("users", "import batches").
 */
export function LoadMore({ hasMore, loading, onLoadMore, what }: { hasMore: boolean; loading: boolean; onLoadMore: () => void; what: string }) {
  if (!hasMore) return null;
  return (
    <div className="flex justify-center py-2">
      <button type="button" className="btn btn-sm btn-outline" onClick={onLoadMore} disabled={loading} aria-busy={loading} aria-label={`Load more ${what}`}>
        {loading && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
        Load more
      </button>
    </div>
  );
}
