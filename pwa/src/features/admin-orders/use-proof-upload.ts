import { useRef, useState } from 'react';
import type { UploadedImage } from '../../../../edge-api/src/contract/uploads.ts';
import { isApiAnswer } from '../../lib/app-error.ts';
import { isImageFile, uploadImage, uploadProblem } from '../../lib/image-upload.ts';

/** Spec: 'Failed to upload image: ' plus the message: the server's own words when it answered, else what went wrong here. */
const uploadFailureText = (error: unknown): string => (isApiAnswer(error) ? error.message : uploadProblem(error, 'proof').text);

/** The optional proof image of a delivery: uploaded as soon as it is chosen, removable, images only. */
export function useProofUpload(onProblem: (message: string | null) => void) {
  const [proof, setProof] = useState<UploadedImage | null>(null);
  const [uploading, setUploading] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const clearInput = () => {
    if (fileInput.current) fileInput.current.value = '';
  };

  const choose = async (file: File | undefined) => {
    onProblem(null);
    if (!file) return;
    if (!isImageFile(file)) {
      onProblem('Please select an image file (JPG, PNG, WEBP, GIF or HEIC).');
      clearInput();
      return;
    }
    setUploading(true);
    try {
      setProof(await uploadImage(file, 'proof'));
    } catch (cause) {
      onProblem(`Failed to upload image: ${uploadFailureText(cause)}`);
      setProof(null);
      clearInput();
    } finally {
      setUploading(false);
    }
  };

  const remove = () => {
    setProof(null);
    clearInput();
  };

  return { proof, uploading, fileInput, choose, remove };
}
