import { useId } from 'react';
import { uploadLimitMegabytes } from '../../../../edge-api/src/contract/uploads.ts';
import { IMAGE_FILE_ACCEPT, imageFileHint } from '../../lib/image-upload.ts';
import type { useProofUpload } from './use-proof-upload.ts';

/** 'WISE Email', of email type, with the duplicate check's note under it. */
export function EmailField({ value, onChange, note }: { value: string; onChange: (value: string) => void; note: string | null }) {
  const id = useId();
  const noteId = useId();
  return (
    <div className="mb-3">
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        WISE Email
      </label>
      <input
        id={id}
        type="email"
        required
        autoComplete="off"
        className={`input w-full ${note ? 'input-warning' : ''}`}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={note ? noteId : undefined}
      />
      {note && (
        <p id={noteId} className="mt-1 text-sm text-warning-content">
          {note}
        </p>
      )}
    </div>
  );
}

export interface ProofFieldProps {
  upload: ReturnType<typeof useProofUpload>;
  /** A stock account brings its own image. */
  fromStock: boolean;
  online: boolean;
}

/** 'Proof image (optional)': uploaded when chosen (online only), shown, removable. */
export function ProofField({ upload, fromStock, online }: ProofFieldProps) {
  const id = useId();
  const { proof, uploading, fileInput, choose, remove } = upload;
  return (
    <div className="mt-3 mb-4">
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        Proof image (optional)
      </label>
      {fromStock ? (
        <p className="text-sm text-base-content/70">The stock account's own image is delivered as proof.</p>
      ) : proof ? (
        <div className="flex items-center gap-3">
          <img src={proof.url} alt="Proof image to deliver" className="h-20 w-20 rounded-box border border-base-300 object-cover" />
          <button type="button" className="btn btn-ghost btn-sm" onClick={remove}>
            Remove image
          </button>
        </div>
      ) : (
        <>
          <input
            ref={fileInput}
            id={id}
            type="file"
            accept={IMAGE_FILE_ACCEPT}
            className="file-input w-full"
            aria-describedby={`${id}-hint`}
            disabled={!online || uploading}
            onChange={(event) => void choose(event.target.files?.[0])}
          />
          <p id={`${id}-hint`} className="mt-1 text-xs text-base-content/80">
            {imageFileHint(uploadLimitMegabytes.proof)}
          </p>
          {uploading && (
            <p className="mt-1 text-sm" role="status">
              Uploading image...
            </p>
          )}
        </>
      )}
    </div>
  );
}
