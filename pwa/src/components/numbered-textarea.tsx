import { useRef, type TextareaHTMLAttributes } from 'react';

export interface NumberedTextareaProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange' | 'wrap'> {
  value: string;
  onChange: (value: string) => void;
  /** The box's height class, e.g. h-32. */
  heightClass?: string;
}

/**
 * A text box for rows to import, with the number of each line beside it (issue 33, item 1): an import's
 * preview names the line of each problem, and the line is found here to fix it in place. Lines do not
 * wrap (a wrapped line would put the numbers out of step); the numbers scroll with the text and are
 * hidden from screen readers, which announce the caret's line themselves.
 */
export function NumberedTextarea({ value, onChange, heightClass = 'h-32', className = '', ...textarea }: NumberedTextareaProps) {
  const gutter = useRef<HTMLPreElement>(null);
  const count = Math.max(1, value.split('\n').length);
  const numbers = Array.from({ length: count }, (_, index) => index + 1).join('\n');
  return (
    <div className={`flex w-full overflow-hidden rounded-field border border-base-content/20 bg-base-100 ${heightClass} ${className}`}>
      <pre
        ref={gutter}
        aria-hidden="true"
        data-testid="line-numbers"
        className="m-0 shrink-0 overflow-hidden border-r border-base-300 bg-base-200 px-2 py-2 text-right font-mono text-sm leading-6 text-base-content/80 select-none"
      >
        {numbers}
      </pre>
      <textarea
        {...textarea}
        value={value}
        wrap="off"
        onChange={(event) => onChange(event.target.value)}
        onScroll={(event) => {
          if (gutter.current) gutter.current.scrollTop = event.currentTarget.scrollTop;
        }}
        className="textarea h-full min-h-0 w-full flex-1 rounded-none border-0 py-2 font-mono text-sm leading-6 focus:outline-none focus-visible:outline-3 focus-visible:-outline-offset-2"
      />
    </div>
  );
}
