import { z } from 'zod';

/** The one error body: every non-2xx answer of the API is `{ "detail": "..." }`. */
export const ErrorBody = z.object({ detail: z.string() }).meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The statuses the API answers errors with, and what each means. */
export const ERROR_STATUSES = {
  400: 'The request is malformed or a field is invalid; the detail names the field.',
  401: 'No valid credentials: the token is missing, invalid or expired.',
  403: 'Authenticated, but the permission matrix does not allow this.',
  404: 'No such thing, or it is not visible to you.',
  409: 'The current state does not allow this.',
  413: 'The body is larger than the limit.',
  414: 'A part of the path is longer than any id or address the API accepts.',
  415: 'The body or the uploaded file is of a type this call does not accept; the detail says why.',
  418: 'The change was stored with errors; review it and submit again.',
  422: 'The request is well-formed but cannot be processed.',
  429: 'Too many attempts; retry after the time in Retry-After.',
  500: 'An unexpected server error; the request id in the logs tells more.',
  501: 'The route is part of the contract but not implemented yet.',
  502: 'A service the call relies on (mail, a notebook server) failed; the detail says what to do.',
  503: 'A service the call needs is not configured or not reachable; the detail says which.',
} as const;
export type ErrorStatus = keyof typeof ERROR_STATUSES;
