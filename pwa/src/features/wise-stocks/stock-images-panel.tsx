import { useEffect, useId, useState } from 'react';
import { ExternalLink } from '../../components/external-link.tsx';
import type { UploadedImage } from '../../../../edge-api/src/contract/uploads.ts';
import type { StockImageField, WiseStock } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { ModalDialog } from '../../components/modal-dialog.tsx';
import { useToast } from '../../components/toast.tsx';
import { keepOnDevice } from '../../db/device-copy.ts';
import { useUserDb } from '../../db/hooks.ts';
import { api, unwrap } from '../../lib/api-client.ts';
import { ImageDropZone } from './image-drop-zone.tsx';
import {
  DOWNLOAD_FAILED_MESSAGE,
  DOWNLOAD_STARTED_MESSAGE,
  downloadImage,
  hasAnyImage,
  IMAGE_UPDATE_FAILED_MESSAGE,
  IMAGE_UPDATED_MESSAGE,
  imageUpdateBody,
  stockImageSlots,
} from './stock-images.ts';

/**
 * A URL a new tab may open: browsers refuse to open data: URLs as a page, so those become blob: URLs.
 */
function useOpenableUrl(url: string): string {
  const [blobUrl, setBlobUrl] = useState<{ from: string; url: string } | null>(null);
  useEffect(() => {
    if (!url.startsWith('data:')) return;
    let objectUrl: string | null = null;
    let cancelled = false;
    fetch(url)
      .then((response) => response.blob())
      .then((blob) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(blob);
        setBlobUrl({ from: url, url: objectUrl });
      })
      .catch(() => {});
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  return blobUrl?.from === url ? blobUrl.url : url;
}

interface SlotProps {
  label: string;
  url: string;
  canManage: boolean;
  onEdit: () => void;
}

function ImageSlot({ label, url, canManage, onEdit }: SlotProps) {
  const toast = useToast();
  const openable = useOpenableUrl(url);
  const [broken, setBroken] = useState(false);

  const download = async () => {
    try {
      await downloadImage(url, label);
      toast.success(DOWNLOAD_STARTED_MESSAGE);
    } catch (error) {
      console.error('Image download failed', error);
      toast.error(DOWNLOAD_FAILED_MESSAGE);
    }
  };

  return (
    <li className="flex flex-col gap-2 rounded-box border border-base-300 p-3">
      <h3 className="font-medium">{label}</h3>
      {url ? (
        <>
          {broken ? (
            <p className="flex h-40 items-center justify-center rounded bg-base-200 p-2 text-center text-sm text-base-content/80">Image failed to load</p>
          ) : (
            <img src={url} alt={label} className="h-40 w-full rounded bg-base-200 object-contain" onError={() => setBroken(true)} />
          )}
          <div className="flex flex-wrap gap-2">
            <ExternalLink href={openable} className="btn btn-sm btn-outline" aria-label={`View Full Screen: ${label}`}>
              View Full Screen
            </ExternalLink>
            <button type="button" className="btn btn-sm btn-outline" onClick={() => void download()} aria-label={`Download: ${label}`}>
              Download
            </button>
            {canManage && (
              <button type="button" className="btn btn-sm btn-primary" onClick={onEdit} aria-label={`Update Image: ${label}`}>
                Update Image
              </button>
            )}
          </div>
        </>
      ) : (
        <div className="flex h-40 flex-col items-center justify-center gap-2 rounded bg-base-200 p-2 text-center text-sm">
          <span className="text-base-content/80">No image</span>
          {canManage && (
            <button type="button" className="btn btn-sm btn-primary" onClick={onEdit} aria-label={`Upload Image: ${label}`}>
              Upload Image
            </button>
          )}
        </div>
      )}
    </li>
  );
}

interface UpdateImageModalProps {
  stock: WiseStock;
  field: StockImageField;
  label: string;
  onClose: () => void;
}

/** Update Image: the current image and an upload area; the new image replaces it as soon as it is uploaded. */
function UpdateImageModal({ stock, field, label, onClose }: UpdateImageModalProps) {
  const toast = useToast();
  const db = useUserDb();
  const [saving, setSaving] = useState(false);
  const current = stock[field];

  const save = async (image: UploadedImage | null) => {
    if (!image || saving) return;
    setSaving(true);
    try {
      const answer = await unwrap(api['wise-stocks'][':id'].$put({ param: { id: stock.id }, json: imageUpdateBody(field, image.path) }));
      if (db) await keepOnDevice(db, { stocks: [answer.stock] });
      toast.success(IMAGE_UPDATED_MESSAGE);
      onClose();
    } catch (error) {
      console.error('Stock image update failed', error);
      toast.error(IMAGE_UPDATE_FAILED_MESSAGE);
      setSaving(false);
    }
  };

  return (
    <ModalDialog title={current ? 'Update Image' : 'Upload Image'} onClose={onClose}>
      <div className="space-y-4">
        {current && (
          <figure className="space-y-1">
            <img src={current} alt={`Current ${label}`} className="max-h-56 w-full rounded bg-base-200 object-contain" />
            <figcaption className="text-sm text-base-content/70">Current image</figcaption>
          </figure>
        )}
        <ImageDropZone
          label={`New ${label}`}
          required
          value={null}
          onChange={(image) => void save(image)}
          announceSuccess={false}
          showFilled={false}
          disabled={saving}
        />
        {saving && (
          <p role="status" className="flex items-center gap-2 text-sm">
            <span className="loading loading-spinner loading-sm" aria-hidden="true" /> Saving image...
          </p>
        )}
        <div className="modal-action">
          <button type="button" className="btn" onClick={onClose} disabled={saving}>
            Cancel
          </button>
        </div>
      </div>
    </ModalDialog>
  );
}

/** Account Images: the three slots, each viewable, downloadable and (for admins) replaceable. */
export function StockImagesPanel({ stock, canManage }: { stock: WiseStock; canManage: boolean }) {
  const [editing, setEditing] = useState<{ field: StockImageField; label: string } | null>(null);
  const headingId = useId();
  const any = hasAnyImage(stock);

  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby={headingId}>
      <div className="card-body">
        <h2 id={headingId} className="card-title">
          Account Images
        </h2>
        {!any && <p className="text-base-content/80">No images available for this stock</p>}
        {(any || canManage) && (
          <ul className="grid gap-4 md:grid-cols-3">
            {stockImageSlots.map((slot) => (
              <ImageSlot
                key={`${slot.field}:${stock[slot.field]}`}
                label={slot.label}
                url={stock[slot.field]}
                canManage={canManage}
                onEdit={() => setEditing(slot)}
              />
            ))}
          </ul>
        )}
      </div>
      {editing && <UpdateImageModal stock={stock} field={editing.field} label={editing.label} onClose={() => setEditing(null)} />}
    </section>
  );
}
