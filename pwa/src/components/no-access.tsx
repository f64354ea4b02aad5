import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { usePageTitle } from './page-title.ts';

export interface NoAccessProps {
  /** What the screen is, for the window title, e.g. 'User Management'. */
  screen: string;
  title?: string;
  message: string;
  /** The ways on; by default back to the order list, which every staff member may use. */
  children?: ReactNode;
}

/** A screen the signed-in person may not use: says so, and offers a way back instead of a dead end. */
export function NoAccess({ screen, title = 'Access Denied!', message, children }: NoAccessProps) {
  usePageTitle(`${screen}: no access`);
  return (
    <div className="flex min-h-[40vh] flex-col items-center justify-center gap-4 p-8 text-center" role="alert">
      <div className="flex h-16 w-16 items-center justify-center rounded-full bg-warning/20 text-warning-content" aria-hidden="true">
        <svg viewBox="0 0 24 24" className="h-8 w-8" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <rect x="5" y="11" width="14" height="10" rx="2" />
          <path d="M8 11V7a4 4 0 1 1 8 0v4" />
        </svg>
      </div>
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="max-w-md text-base-content/80">{message}</p>
      <div className="flex flex-wrap justify-center gap-2">
        {children ?? (
          <Link to="/dashboard" className="btn btn-primary">
            Back to Orders
          </Link>
        )}
      </div>
    </div>
  );
}
