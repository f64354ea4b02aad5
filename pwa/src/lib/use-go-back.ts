import { useNavigate } from 'react-router-dom';

/** Back to where the person came from; to `fallback` when the page was opened directly (no step to go back to). */
export function useGoBack(fallback: string): () => void {
  const navigate = useNavigate();
  return () => {
    // react-router keeps the position in its history stack in history.state.idx.
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) navigate(-1);
    else navigate(fallback);
  };
}
