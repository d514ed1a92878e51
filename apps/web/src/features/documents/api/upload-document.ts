import type { Document } from '@hdp/contract';
import { apiBaseUrl } from '@/config/public-config';
import { contractPath } from '@/lib/api/contract-paths';

export const UPLOAD_DOCUMENT_PATH = contractPath('uploadDocument', '/api/v1/documents/');

/** The multipart field the API reads the file from. */
export const UPLOAD_FIELD = 'file';

export type UploadOutcome =
  | { ok: true; document: Document }
  /** `status` is the HTTP status, or FETCH_ERROR when no answer arrived; `response` is the body. */
  | { ok: false; status: number | 'FETCH_ERROR'; response: unknown }
  | { ok: false; status: 'ABORTED'; response: undefined };

export interface UploadRequest {
  file: File;
  idToken: string | null;
  /** Called with the share of the body sent so far, 0 to 1. */
  onProgress?: (sent: number) => void;
  signal?: AbortSignal;
  baseUrl?: string;
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text || undefined;
  }
}

/**
 * Uploads one document as multipart/form-data with the bearer token. It uses XMLHttpRequest
 * because fetch cannot report upload progress. Never rejects: every outcome is a value.
 */
export function uploadDocument({ file, idToken, onProgress, signal, baseUrl = apiBaseUrl() }: UploadRequest): Promise<UploadOutcome> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${baseUrl}${UPLOAD_DOCUMENT_PATH}`);
    if (idToken) xhr.setRequestHeader('authorization', `Bearer ${idToken}`);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      const body = parseBody(xhr.responseText);
      if (xhr.status === 201) resolve({ ok: true, document: body as Document });
      else resolve({ ok: false, status: xhr.status, response: body });
    };
    xhr.onerror = () => resolve({ ok: false, status: 'FETCH_ERROR', response: undefined });
    xhr.onabort = () => resolve({ ok: false, status: 'ABORTED', response: undefined });
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append(UPLOAD_FIELD, file, file.name);
    xhr.send(form);
  });
}
