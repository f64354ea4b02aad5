import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import type { UploadedImage } from '../../../../edge-api/src/contract/uploads.ts';
import { useToast } from '../../components/toast.tsx';
import {
  IMAGE_FILE_ACCEPT,
  uploadProblem,
  UPLOAD_FAILED,
  UPLOAD_SUCCEEDED,
  uploadImage,
  type UploadProblem,
  type UploadStage,
} from '../../lib/image-upload.ts';

export const IMAGE_HINT = 'JPG, PNG, WEBP, GIF, HEIC • Max 10MB';
/** Spec section 9: upload success popups last 1.5 s. */
export const POPUP_MS = 1500;

const stageText: Record<UploadStage, string> = { converting: 'Converting HEIC...', uploading: 'Uploading image...' };

export interface ImageDropZoneProps {
  /** The field's name, e.g. 'Authentication Image'; also the file input's accessible name. */
  label: string;
  required?: boolean;
  /** The uploaded image, or null for an empty slot. */
  value: UploadedImage | null;
  onChange: (image: UploadedImage | null) => void;
  onBusyChange?: (busy: boolean) => void;
  /** Marks an empty required slot after a submit with fields missing. */
  invalid?: boolean;
  /** Show 'Success!' after each upload (the Update Image modal says 'Image updated successfully' instead). */
  announceSuccess?: boolean;
  /** Without a thumbnail once filled (the modal replaces the image straight away). */
  showFilled?: boolean;
  disabled?: boolean;
}

interface UploadOptions {
  onChange: (image: UploadedImage | null) => void;
  onBusyChange?: (busy: boolean) => void;
  announceSuccess: boolean;
  disabled: boolean;
}

/** The slot's upload: validates, converts HEIC and uploads one file, reporting the stage and any problem. */
function useImageUpload({ onChange, onBusyChange, announceSuccess, disabled }: UploadOptions) {
  const toast = useToast();
  const [stage, setStage] = useState<UploadStage | null>(null);
  const [problem, setProblem] = useState<UploadProblem | null>(null);
  const alive = useRef(true);
  const busyRef = useRef(onBusyChange);
  useEffect(() => {
    busyRef.current = onBusyChange;
  });
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const setBusy = (next: UploadStage | null) => {
    setStage(next);
    busyRef.current?.(next !== null);
  };

  const take = async (file: File | undefined) => {
    if (!file || stage || disabled) return;
    setProblem(null);
    try {
      const image = await uploadImage(file, 'stock', {
        onStage: (next) => {
          if (alive.current) setBusy(next);
        },
      });
      if (!alive.current) return;
      setBusy(null);
      onChange(image);
      if (announceSuccess) toast.success(`${UPLOAD_SUCCEEDED.title} ${UPLOAD_SUCCEEDED.text}`, POPUP_MS);
    } catch (error) {
      if (!alive.current) return;
      setBusy(null);
      const found = uploadProblem(error, 'stock');
      if (found === UPLOAD_FAILED) console.error('Image upload failed', error);
      setProblem(found);
    }
  };

  return { stage, problem, take };
}

function SlotLabel({ id, label, required }: { id: string; label: string; required: boolean }) {
  return (
    <span className="text-sm font-medium">
      <span id={id}>{label}</span>
      {required ? (
        <span className="text-error" aria-hidden="true">
          {' '}
          *
        </span>
      ) : (
        <span className="text-base-content/70"> (optional)</span>
      )}
    </span>
  );
}

function FilledSlot({ url, label, onRemove, disabled }: { url: string; label: string; onRemove: () => void; disabled: boolean }) {
  return (
    <div className="flex flex-col gap-2 rounded-box border border-success/40 bg-success/5 p-3">
      <img src={url} alt={`${label} preview`} className="h-28 w-full rounded bg-base-200 object-contain" />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="badge badge-success">Image uploaded</span>
        <button type="button" className="btn btn-ghost btn-sm" aria-label={`Remove ${label}`} onClick={onRemove} disabled={disabled}>
          <span aria-hidden="true">✕</span> Remove
        </button>
      </div>
    </div>
  );
}

function UploadIcon({ busy }: { busy: boolean }) {
  if (busy) return <span className="loading loading-spinner text-primary" aria-hidden="true" />;
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="h-8 w-8 text-base-content/60"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
    >
      <path d="M12 16V4M7 9l5-5 5 5M4 16v3a1 1 0 001 1h14a1 1 0 001-1v-3" />
    </svg>
  );
}

interface UploadAreaProps {
  ids: { label: string; input: string; hint: string };
  describedBy: string;
  stage: UploadStage | null;
  required: boolean;
  invalid: boolean;
  problem: boolean;
  disabled: boolean;
  take: (file: File | undefined) => Promise<void>;
}

function UploadArea({ ids, describedBy, stage, required, invalid, problem, disabled, take }: UploadAreaProps) {
  const [dragging, setDragging] = useState(false);
  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    void take(event.dataTransfer.files[0]);
  };
  return (
    <label
      htmlFor={ids.input}
      className={`flex cursor-pointer flex-col items-center justify-center gap-1 rounded-box border-2 border-dashed p-5 text-center transition-colors focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-primary ${
        dragging ? 'border-primary bg-primary/10' : invalid ? 'border-error bg-error/5' : 'border-base-300 hover:border-primary'
      } ${stage || disabled ? 'cursor-wait opacity-80' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <input
        id={ids.input}
        type="file"
        accept={IMAGE_FILE_ACCEPT}
        className="sr-only"
        aria-labelledby={ids.label}
        aria-describedby={describedBy}
        aria-required={required || undefined}
        aria-invalid={invalid || problem || undefined}
        disabled={stage !== null || disabled}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          void take(file);
        }}
      />
      <UploadIcon busy={stage !== null} />
      <span className="font-medium">{stage ? stageText[stage] : 'Click to upload or drag and drop'}</span>
      <span id={ids.hint} className="text-xs text-base-content/70">
        {IMAGE_HINT}
      </span>
    </label>
  );
}

/**
 * One image slot: an upload area (a real file input, keyboard usable, drop welcome) that validates,
 * converts HEIC and uploads at once; filled, a thumbnail with 'Image uploaded' and a remove button.
 */
export function ImageDropZone({
  label,
  required = false,
  value,
  onChange,
  onBusyChange,
  invalid = false,
  announceSuccess = true,
  showFilled = true,
  disabled = false,
}: ImageDropZoneProps) {
  const ids = { label: useId(), input: useId(), hint: useId(), status: useId(), problem: useId() };
  const { stage, problem, take } = useImageUpload({ onChange, onBusyChange, announceSuccess, disabled });
  const describedBy = [ids.hint, problem ? ids.problem : ''].filter(Boolean).join(' ');

  return (
    <div className="flex flex-col gap-2">
      <SlotLabel id={ids.label} label={label} required={required} />
      {value !== null && showFilled ? (
        <FilledSlot url={value.url} label={label} onRemove={() => onChange(null)} disabled={disabled} />
      ) : (
        <UploadArea
          ids={ids}
          describedBy={describedBy}
          stage={stage}
          required={required}
          invalid={invalid}
          problem={problem !== null}
          disabled={disabled}
          take={take}
        />
      )}
      <span id={ids.status} className="sr-only" role="status" aria-live="polite">
        {stage ? stageText[stage] : ''}
      </span>
      {problem && (
        <div id={ids.problem} role="alert" className="alert alert-error py-2 text-sm">
          <span>
            <strong>{problem.title}</strong> {problem.text}
          </span>
        </div>
      )}
    </div>
  );
}
