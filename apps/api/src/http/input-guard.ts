import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { LIMITS } from '@hdp/contract';
import { badRequest } from './api-error';

/**
 * Why a string cannot be stored as text, or undefined when it can. PostgreSQL refuses U+0000 in
 * text and jsonb, and an unpaired UTF-16 surrogate is not Unicode text at all: the database would
 * store U+FFFD in its place, so what was hashed into the audit chain would differ from what is kept.
 */
export function textProblem(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain NUL (U+0000) characters';
  if (!value.isWellFormed()) return 'must not contain unpaired UTF-16 surrogates (it is not valid Unicode text)';
  return undefined;
}

/** `body` + `rules.0.id` → `body.rules.0.id`, the way validation details name fields. */
const fieldName = (where: string, path: readonly (string | number)[]) => [where, ...path].join('.');

/**
 * The first string (value or key) anywhere in `input` that cannot be stored as text, as
 * `<where>.<field>: <reason>`. Walks with an explicit stack, so no input is too deep for it.
 */
export function findTextProblem(input: unknown, where: string): string | undefined {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: input, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) return `${fieldName(where, path)}: ${problem}`;
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: [...path, i] });
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const problem = textProblem(key);
        if (problem) return `${fieldName(where, path)}: a property name ${problem}`;
        stack.push({ value: (value as Record<string, unknown>)[key], path: [...path, key] });
      }
    }
  }
  return undefined;
}

/**
 * The query string's parser keeps a value whose percent-encoding is not UTF-8 as the raw text,
 * where the path's router refuses it: refused here too, so both say the same.
 */
function queryEncodingProblem(url: string): string | undefined {
  const start = url.indexOf('?');
  if (start < 0 || !url.includes('%', start)) return undefined;
  for (const piece of url.slice(start + 1).split('&')) {
    try {
      decodeURIComponent(piece);
    } catch {
      return 'query: part of the query string is not well-formed percent-encoding (of UTF-8 text)';
    }
  }
  return undefined;
}

/** How deeply arrays and objects nest in a parsed JSON value (a scalar is 0), counted without recursion. */
export function jsonDepth(input: unknown, stopAbove = Infinity): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[input, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    const level = depth + 1;
    if (level > deepest) deepest = level;
    if (deepest > stopAbove) return deepest;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (child !== null && typeof child === 'object') stack.push([child, level]);
    }
  }
  return deepest;
}

/**
 * The one gate every request's input passes before any route sees it, so that routes added later
 * inherit it without doing anything:
 * - a JSON body is parsed by Fastify's own parser (prototype poisoning refused), then refused when
 *   it nests deeper than `LIMITS.jsonMaxDepth`, before validation, so nothing downstream (the
 *   schemas' recursion, the query compiler, the audit chain) meets a structure it cannot handle;
 * - before validation, every string in the path parameters, the query string and the body, keys
 *   included, must be storable text (no NUL, no unpaired surrogate). Multipart parts are checked
 *   where they are read (`guardMultipart` in the upload context).
 * Either refusal is a 400 whose detail names the field.
 */
export function registerInputGuard(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    parseJson(request, body as string, (error: Error | null, value?: unknown) => {
      if (error) return done(error, undefined);
      if (jsonDepth(value, LIMITS.jsonMaxDepth) > LIMITS.jsonMaxDepth) {
        return done(badRequest(`body: nests objects and arrays more than ${LIMITS.jsonMaxDepth} deep`), undefined);
      }
      done(null, value);
    });
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const problem =
      findTextProblem(request.params, 'path') ??
      queryEncodingProblem(request.url) ??
      findTextProblem(request.query, 'query') ??
      // A body left as a stream (the notebook proxy passes bodies through untouched) is not parsed input.
      (isStream(request.body) ? undefined : findTextProblem(request.body, 'body'));
    done(problem ? badRequest(problem) : undefined);
  });
}

function isStream(body: unknown): boolean {
  return typeof (body as { pipe?: unknown } | null)?.pipe === 'function';
}

/** The detail for a multipart body the parser cannot read, in words a client can act on. */
export const MALFORMED_MULTIPART = 'body: the multipart/form-data body is malformed or cut short; send one field named "file" with a boundary.';

/** A multipart part's strings (its file name and the fields before it), checked like every other input. */
function multipartProblem(part: MultipartFile): string | undefined {
  const nameProblem = textProblem(part.filename);
  if (nameProblem) return `body.${part.fieldname}.filename: ${nameProblem}`;
  for (const field of Object.values(part.fields ?? {}).flat()) {
    if (field && field.type === 'field' && typeof field.value === 'string') {
      const problem = textProblem(field.value) ?? textProblem(field.fieldname);
      if (problem) return `body.${field.fieldname}: ${problem}`;
    }
  }
  const fieldNameProblem = textProblem(part.fieldname);
  return fieldNameProblem && `body: a field name ${fieldNameProblem}`;
}

/**
 * For the routes that take a multipart body: `request.file()` answers a part whose file name and
 * fields passed the same text rules as JSON input, and a body busboy cannot parse (no boundary,
 * cut short) is a 400 instead of a bare error.
 */
export function registerMultipartGuard(app: FastifyInstance): void {
  app.addHook('preHandler', (request, _reply, done) => {
    const read = request.file.bind(request) as (...args: unknown[]) => Promise<MultipartFile | undefined>;
    (request as { file: FastifyRequest['file'] }).file = (async (...args: unknown[]) => {
      let part: MultipartFile | undefined;
      try {
        part = await read(...args);
      } catch (error) {
        throw isBusboyError(error) ? badRequest(MALFORMED_MULTIPART) : error;
      }
      part?.file.on('error', (error) => bodyStreamErrors.add(error));
      const problem = part && multipartProblem(part);
      if (problem) {
        part!.file.resume();
        throw badRequest(problem);
      }
      return part;
    }) as FastifyRequest['file'];
    done();
  });
}

/** Errors a multipart file stream raised itself (the body was malformed or cut short), not its reader. */
const bodyStreamErrors = new WeakSet<object>();

/** Whether reading `part` failed because of the body the client sent (then a 400), rather than on our side. */
export const isMultipartBodyError = (part: MultipartFile, error: unknown) =>
  error instanceof Object && (error === part.file.errored || bodyStreamErrors.has(error));

/** Errors of the multipart parser itself: plain errors without an HTTP status (the plugin's own carry one). */
const isBusboyError = (error: unknown) =>
  error instanceof Error && !('statusCode' in error) && !('code' in error && typeof error.code === 'string' && error.code.startsWith('E'));
