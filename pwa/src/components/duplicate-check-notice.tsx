import { problemText, type DuplicateCheckProblem } from '../lib/duplicate-check-problem.ts';

/**
 * Says that the duplicate check did not run for the credentials as typed (paused past the server's limit,
 * or failed), and what that means for this form: never silence, which would read as "no duplicates".
 */
export function DuplicateCheckNotice({
  id,
  problem,
  consequence,
  className = '',
}: {
  id?: string;
  problem: DuplicateCheckProblem | null;
  consequence: string;
  className?: string;
}) {
  if (!problem) return null;
  const { title, text } = problemText(problem);
  return (
    <div id={id} role="status" className={`alert alert-warning ${className}`}>
      <div>
        <p className="font-semibold">{title}</p>
        <p className="text-sm">{text}</p>
        <p className="text-sm">{consequence}</p>
      </div>
    </div>
  );
}
