import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ApiError } from './api-error';

/** Fastify's own client errors, rewritten as a detail a person can act on. */
const FASTIFY_ERROR_DETAILS: Record<string, (error: FastifyError, bodyLimit: number) => string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: (_e, limit) => `The request body is larger than the limit of ${limit} bytes.`,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => 'Unsupported Content-Type: send application/json.',
  FST_ERR_CTP_EMPTY_JSON_BODY: () => 'The body is empty but Content-Type says JSON.',
  FST_ERR_CTP_INVALID_JSON_BODY: () => 'The body is not valid JSON.',
};

/** Where a validation problem was found, as the client wrote it. */
const CONTEXT_LABEL: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/**
 * The one place errors become responses: always `{ "detail": "..." }`, validation details name
 * the field, and a 5xx never shows internals (the request id ties it to the log).
 */
export function registerErrorHandling(app: FastifyInstance, bodyLimit: number): void {
  const reporter = app.services.errorReporter;
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) {
      // 501 (not built) and 503 (not configured) are deliberate answers, not faults.
      if (error.statusCode >= 500 && error.statusCode !== 501 && error.statusCode !== 503) {
        request.log.error({ err: error }, 'server error');
        reporter?.report(error, request, error.statusCode);
      }
      return reply.code(error.statusCode).headers(error.headers).send({ detail: error.detail });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const where = CONTEXT_LABEL[error.validationContext ?? 'body'] ?? 'body';
      const detail = error.validation
        .map((issue) => {
          const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
          return `${field ? `${where}.${field}` : where}: ${issue.message}`;
        })
        .join('; ');
      return reply.code(400).send({ detail });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      const describe = FASTIFY_ERROR_DETAILS[error.code];
      const status = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? 400 : error.statusCode;
      return reply.code(status).send({ detail: describe ? describe(error, bodyLimit) : error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    reporter?.report(error, request, 500);
    return reply.code(500).send({ detail: `Internal server error. Quote request id ${request.id} when reporting it.` });
  });
}
