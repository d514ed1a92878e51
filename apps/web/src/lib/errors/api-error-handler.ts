import { createElement } from 'react';
import { createListenerMiddleware, isRejectedWithValue } from '@reduxjs/toolkit';
import type { FetchBaseQueryError, FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import { presentError, type ApiFailure } from './error-catalogue';
import { getErrorReporter, type ErrorReporter } from './error-reporter';
import { showToast, type Toast } from './notifier';
import { DescriptionWithItems } from './description-with-items';
import { DescriptionWithRefresh } from './refresh-prompt';

/** Everything known about one failed API call. */
export interface FailedCall {
  endpoint: string;
  method?: string;
  /** HTTP status, or FETCH_ERROR / TIMEOUT_ERROR / PARSING_ERROR / CUSTOM_ERROR. */
  status: number | string;
  /** The response body (JSON when the API answered). */
  response: unknown;
  args: unknown;
  url?: string;
  /** A client-side error message (network failure, timeout, unreadable body). */
  error?: string;
}

export interface ErrorHandlerDeps {
  show: (toast: Toast) => void;
  reporter: ErrorReporter;
  logError: (...data: unknown[]) => void;
}

const defaultDeps = (): ErrorHandlerDeps => ({ show: showToast, reporter: getErrorReporter(), logError: console.error });

/** The server's `detail`, when the body is the API's error body. */
export function detailOf(response: unknown): string | undefined {
  if (response && typeof response === 'object' && 'detail' in response) {
    const detail = (response as { detail: unknown }).detail;
    if (typeof detail === 'string') return detail;
  }
  return undefined;
}

/** The answer's `refused[]` (a workbench 418), keeping only well-formed entries. */
export function refusedOf(response: unknown): { kind: string; reason: string }[] | undefined {
  if (!response || typeof response !== 'object' || !('refused' in response)) return undefined;
  const refused = (response as { refused: unknown }).refused;
  if (!Array.isArray(refused)) return undefined;
  return refused.filter(
    (item): item is { kind: string; reason: string } => !!item && typeof item === 'object' && typeof item.kind === 'string' && typeof item.reason === 'string',
  );
}

/**
 * The global handler of failed calls: looks the failure up in the error catalogue, shows the
 * toast it names, and sends unexpected failures to the console and the error reporter.
 */
export function handleFailedCall(call: FailedCall, deps: ErrorHandlerDeps = defaultDeps()): void {
  const failure: ApiFailure = { endpoint: call.endpoint, status: call.status, detail: detailOf(call.response), refused: refusedOf(call.response) };
  const presentation = presentError(failure);

  if (presentation.message || presentation.description) {
    const text = presentation.refreshPrompt
      ? createElement(DescriptionWithRefresh, { description: presentation.description })
      : presentation.description;
    const description = presentation.items
      ? createElement(DescriptionWithItems, { description: text, items: presentation.items, label: 'Not applied' })
      : text;
    deps.show({
      type: presentation.type,
      title: presentation.message,
      description,
      // A toast with a description stays until the user closes it.
      duration: presentation.description ? 0 : undefined,
    });
  }

  if (presentation.unexpected) {
    const error = new Error(`${call.method ?? 'GET'} ${call.endpoint} failed with ${call.status}${failure.detail ? `: ${failure.detail}` : ''}`);
    const context = { endpoint: call.endpoint, method: call.method, status: call.status, args: call.args, response: call.response ?? call.error, url: call.url };
    deps.logError('Unexpected API error', context);
    deps.reporter.report(error, context);
  }
}

/** Turns a rejected RTK Query action into a FailedCall. */
export function failedCallOf(action: {
  payload: unknown;
  meta: { arg?: unknown; baseQueryMeta?: unknown };
}): FailedCall | null {
  const arg = action.meta.arg as { endpointName?: string; originalArgs?: unknown } | undefined;
  if (!arg?.endpointName) return null;
  const payload = action.payload as FetchBaseQueryError;
  const meta = action.meta.baseQueryMeta as FetchBaseQueryMeta | undefined;
  const status = payload.status === 'PARSING_ERROR' ? 'PARSING_ERROR' : payload.status;
  return {
    endpoint: arg.endpointName,
    method: meta?.request?.method,
    status,
    response: 'data' in payload ? payload.data : undefined,
    error: 'error' in payload ? payload.error : undefined,
    args: arg.originalArgs,
    url: meta?.request?.url ?? (typeof window === 'undefined' ? undefined : window.location.href),
  };
}

/** The listener middleware that sends every failed call with a value to the handler. */
export function createApiErrorListener(deps?: () => ErrorHandlerDeps) {
  const listener = createListenerMiddleware();
  listener.startListening({
    matcher: isRejectedWithValue,
    effect: (action) => {
      const call = failedCallOf(action);
      if (call) handleFailedCall(call, deps ? deps() : defaultDeps());
    },
  });
  return listener;
}

/** The general helper for errors outside API calls: an error toast, the console and the reporter. */
export function notifyUnexpectedError(error: unknown, where: string, deps: ErrorHandlerDeps = defaultDeps()): void {
  const asError = error instanceof Error ? error : new Error(String(error));
  deps.show({ type: 'error', title: 'Something went wrong' });
  deps.logError(`Unexpected error in ${where}`, asError);
  deps.reporter.report(asError, { endpoint: where, status: 'CLIENT_ERROR', args: undefined, response: undefined, url: typeof window === 'undefined' ? undefined : window.location.href });
}
