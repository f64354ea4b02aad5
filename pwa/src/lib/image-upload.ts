import { uploadLimitMegabytes, type UploadedImage, type UploadKind } from '../../../edge-api/src/contract/uploads.ts';
import { unwrap } from './api-client.ts';
import { AppError } from './app-error.ts';
import { getAccessToken } from './supabase.ts';

/** A message for the person, as a title and a sentence (the spec's popups have both). */
export interface UploadProblem {
  title: string;
  text: string;
}

export type UploadStage = 'converting' | 'uploading';

const MB = 1024 * 1024;

/** What the file picker offers; HEIC from phones is listed by extension because many systems give it no type. */
export const IMAGE_FILE_ACCEPT = 'image/jpeg,image/jpg,image/png,image/webp,image/gif,image/heic,image/heif,.heic,.heif';

/** What a picture field says it takes, under it: the same types as IMAGE_FILE_ACCEPT, and the size limit. */
export const imageFileHint = (megabytes: number): string => `Accepted: JPG, PNG, WEBP, GIF or HEIC images, up to ${megabytes} MB.`;

const acceptedTypes = new Set([
  'image/jpeg',
  'image/jpg',
  'image/png',
  'image/heic',
  'image/heif',
  'image/webp',
  'image/gif',
  // Some phones and browsers hand over photos as generic binary; the server checks the bytes anyway.
  'application/octet-stream',
]);
const heicName = /\.(heic|heif)$/i;

/** Any image by its type, or a HEIC/HEIF photo by its name (phones often hand those over with no type). */
export const isImageFile = (file: File): boolean => file.type.startsWith('image/') || heicName.test(file.name);

export const INVALID_TYPE: UploadProblem = { title: 'Invalid file type!', text: 'Please select JPG, PNG, WEBP, GIF, or HEIC image files' };
export const tooLargeProblem = (megabytes: number): UploadProblem => ({ title: 'File too large!', text: `Please select an image smaller than ${megabytes}MB` });
export const UPLOAD_FAILED: UploadProblem = { title: 'Upload Failed!', text: 'Failed to upload image. Please try again.' };
export const NETWORK_FAILED: UploadProblem = { title: 'Upload Failed!', text: 'Network error. Please check your internet connection.' };
export const HEIC_FAILED: UploadProblem = { title: 'Upload Failed!', text: 'HEIC conversion failed. Please use JPEG or PNG format.' };
export const UPLOAD_SUCCEEDED: UploadProblem = { title: 'Success!', text: 'Image uploaded successfully' };

/** Size first, then type (spec section 5): null when the file may be uploaded. */
export function checkImageFile(file: File, maxMegabytes: number = uploadLimitMegabytes.stock): UploadProblem | null {
  if (file.size > maxMegabytes * MB) return tooLargeProblem(maxMegabytes);
  if (!acceptedTypes.has(file.type.toLowerCase()) && !heicName.test(file.name)) return INVALID_TYPE;
  return null;
}

const heicBrands = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs', 'mif1', 'msf1']);

/** HEIC/HEIF by type, by name, or (for files with a generic type) by the brand in their first bytes. */
export async function isHeicFile(file: File): Promise<boolean> {
  const type = file.type.toLowerCase();
  if (type === 'image/heic' || type === 'image/heif' || heicName.test(file.name)) return true;
  if (type !== '' && type !== 'application/octet-stream') return false;
  try {
    const head = new Uint8Array(await file.slice(0, 12).arrayBuffer());
    const text = String.fromCharCode(...head);
    return text.slice(4, 8) === 'ftyp' && heicBrands.has(text.slice(8, 12));
  } catch {
    return false;
  }
}

/** HEIC/HEIF becomes JPEG at quality 0.8 in the browser; the converter (large) loads only when needed. */
export async function convertHeicToJpeg(file: File): Promise<File> {
  try {
    const { default: heic2any } = await import('heic2any');
    const converted = await heic2any({ blob: file, toType: 'image/jpeg', quality: 0.8 });
    const blob = Array.isArray(converted) ? converted[0] : converted;
    if (!blob) throw new Error('heic2any returned no image');
    const name = heicName.test(file.name) ? file.name.replace(heicName, '.jpg') : `${file.name || 'image'}.jpg`;
    return new File([blob], name, { type: 'image/jpeg' });
  } catch (cause) {
    throw new AppError('conversion_failed', HEIC_FAILED.text, { cause });
  }
}

/** What to say about a failed upload, by its code (the same whether this device or the server refused). */
export function uploadProblem(error: unknown, kind: UploadKind = 'stock'): UploadProblem {
  if (!(error instanceof AppError)) return typeof navigator !== 'undefined' && navigator.onLine === false ? NETWORK_FAILED : UPLOAD_FAILED;
  switch (error.code) {
    case 'payload_too_large':
      return tooLargeProblem(uploadLimitMegabytes[kind]);
    case 'unsupported_media_type':
      return INVALID_TYPE;
    case 'conversion_failed':
      return HEIC_FAILED;
    case 'network':
      return NETWORK_FAILED;
    default:
      return UPLOAD_FAILED;
  }
}

export interface UploadImageOptions {
  /** Told when conversion and then the upload start, for progress messages. */
  onStage?: (stage: UploadStage) => void;
  /** The transport (tests pass one bound to the in-process API app). */
  fetch?: typeof fetch;
  getToken?: () => Promise<string | null>;
  /** Where the API lives; the app's own origin by default. */
  baseUrl?: string;
}

/**
 * Validates, converts HEIC to JPEG, and uploads one image (POST /api/uploads, multipart `file` + `kind`).
 * Throws an AppError: the server's refusal, 'network', or this device's own check of the file
 * (payload_too_large, unsupported_media_type, conversion_failed); uploadProblem words it.
 */
export async function uploadImage(file: File, kind: UploadKind, options: UploadImageOptions = {}): Promise<UploadedImage> {
  const problem = checkImageFile(file, uploadLimitMegabytes[kind]);
  if (problem) throw new AppError(problem === INVALID_TYPE ? 'unsupported_media_type' : 'payload_too_large', problem.text);
  let image = file;
  if (await isHeicFile(file)) {
    options.onStage?.('converting');
    image = await convertHeicToJpeg(file);
  }
  options.onStage?.('uploading');
  const send = options.fetch ?? globalThis.fetch.bind(globalThis);
  const token = await (options.getToken ?? getAccessToken)();
  const form = new FormData();
  form.set('kind', kind);
  form.set('file', image);
  return unwrap<UploadedImage>(
    send(`${options.baseUrl ?? ''}/api/uploads`, { method: 'POST', body: form, headers: token ? { authorization: `Bearer ${token}` } : {} }),
  );
}
