/** The one error type: an HTTP status and a `detail` the client can show. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

export const badRequest = (detail: string) => new ApiError(400, detail);
export const unauthorized = (detail = 'Authentication required: send Authorization: Bearer <id token>.') =>
  new ApiError(401, detail);
export const forbidden = (detail = 'You do not have permission to do this.') => new ApiError(403, detail);
export const notFound = (detail: string) => new ApiError(404, detail);
export const conflict = (detail: string) => new ApiError(409, detail);
export const tooManyRequests = (detail: string, retryAfterSeconds: number) =>
  new ApiError(429, detail, { 'retry-after': String(retryAfterSeconds) });
export const notImplemented = (detail: string) => new ApiError(501, detail);
/** A service the call needs is not configured or not reachable; the detail says what to do. */
export const serviceUnavailable = (detail: string) => new ApiError(503, detail);
