import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useSession } from 'next-auth/react';
import type { Document } from '@hdp/contract';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { idTokenChanged, selectIdToken } from '@/lib/auth/auth-slice';
import { baseApi } from '@/lib/api/base-api';
import { handleFailedCall } from '@/lib/errors/api-error-handler';
import { getErrorReporter } from '@/lib/errors/error-reporter';
import { uploadDocument, UPLOAD_DOCUMENT_PATH, type UploadOutcome } from '../api/upload-document';
import { uploadRefusal } from '@/lib/files/document-size';

export type UploadState =
  | { phase: 'idle' }
  | { phase: 'uploading'; fileName: string; percent: number }
  | { phase: 'uploaded'; document: Document }
  | { phase: 'refused'; fileName: string; title?: ReactNode; description?: ReactNode };

/**
 * Uploads one document at a time with its progress. A file over the cap is refused here, before
 * anything is sent; the API's refusals are worded by the error catalogue (`uploadDocument`) and
 * shown beside the upload area. After a 401 the session renews its token once and the upload
 * starts again. A finished upload refreshes the documents lists.
 */
export function useDocumentUpload() {
  const idToken = useAppSelector(selectIdToken);
  const dispatch = useAppDispatch();
  const { update } = useSession();
  const [state, setState] = useState<UploadState>({ phase: 'idle' });
  const inFlight = useRef<AbortController | null>(null);

  useEffect(() => () => inFlight.current?.abort(), []);

  const start = useCallback(
    async (file: File) => {
      const refusal = uploadRefusal(file);
      if (refusal) {
        setState({ phase: 'refused', fileName: file.name, title: 'The file was not uploaded', description: refusal });
        return;
      }
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      setState({ phase: 'uploading', fileName: file.name, percent: 0 });
      const send = (token: string | null): Promise<UploadOutcome> =>
        uploadDocument({
          file,
          idToken: token,
          signal: controller.signal,
          onProgress: (sent) => setState({ phase: 'uploading', fileName: file.name, percent: Math.floor(sent * 100) }),
        });

      let outcome = await send(idToken);
      if (!outcome.ok && outcome.status === 401) {
        const renewed = (await update().catch(() => null))?.idToken ?? null;
        if (renewed && renewed !== idToken) {
          dispatch(idTokenChanged(renewed));
          outcome = await send(renewed);
        }
      }
      if (inFlight.current === controller) inFlight.current = null;

      if (outcome.ok) {
        setState({ phase: 'uploaded', document: outcome.document });
        dispatch(baseApi.util.invalidateTags([{ type: 'Documents', id: 'LIST' }]));
      } else if (outcome.status === 'ABORTED') {
        setState({ phase: 'idle' });
      } else {
        setState({ phase: 'refused', fileName: file.name, title: 'The file was not uploaded' });
        handleFailedCall(
          {
            endpoint: 'uploadDocument',
            method: 'POST',
            status: outcome.status,
            response: outcome.response,
            args: { name: file.name, size: file.size, type: file.type },
            url: UPLOAD_DOCUMENT_PATH,
          },
          {
            show: (toast) => setState({ phase: 'refused', fileName: file.name, title: toast.title, description: toast.description }),
            reporter: getErrorReporter(),
            logError: console.error,
          },
        );
      }
    },
    [dispatch, idToken, update],
  );

  const cancel = useCallback(() => inFlight.current?.abort(), []);
  const reset = useCallback(() => setState({ phase: 'idle' }), []);

  return { state, start, cancel, reset };
}
