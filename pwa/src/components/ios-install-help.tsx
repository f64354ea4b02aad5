import { ModalDialog } from './modal-dialog.tsx';

/** How to add the app to the Home Screen in Safari on iOS, which offers no install prompt. */
export function IosInstallHelp({ onClose }: { onClose: () => void }) {
  return (
    <ModalDialog title="Add to Home Screen" onClose={onClose} closeOnBackdrop>
      <ol className="list-decimal space-y-2 pl-5">
        <li>
          Tap the <strong>Share</strong> button <ShareIcon /> in Safari&apos;s toolbar.
        </li>
        <li>
          Scroll down and choose <strong>Add to Home Screen</strong>.
        </li>
        <li>
          Tap <strong>Add</strong>. The app then opens from your Home Screen, full screen and offline.
        </li>
      </ol>
      <p className="mt-3 text-sm text-base-content/80">The installed app keeps its own storage: sign in once more inside it.</p>
      <div className="modal-action">
        <button type="button" className="btn btn-primary" onClick={() => onClose()}>
          Got it
        </button>
      </div>
    </ModalDialog>
  );
}

function ShareIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      className="inline h-4 w-4 align-text-bottom"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-label="(the square with an arrow pointing up)"
      role="img"
    >
      <path d="M12 3v12M8 7l4-4 4 4M6 11H5a1 1 0 0 0-1 1v8a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-8a1 1 0 0 0-1-1h-1" />
    </svg>
  );
}
