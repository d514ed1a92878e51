import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Checks that an answer of the API is what its OpenAPI document says it is: for the operation the
 * request reached (method and path template) and the status it answered, the document declares
 * that status, and the body validates against the schema declared for it. Every request a test
 * sends through the test app passes through here, so a route is checked as soon as a test calls it,
 * including routes added later.
 *
 * Not checked, on purpose: requests to paths the document does not describe as contract operations
 * (health, the notebook proxy, the document itself, routes a test adds), redirects (no body), and answers the document declares as a file
 * rather than JSON (downloads).
 */
export interface ResponseConformance {
  /** Throws an error naming the route, the status and the offending field when the answer does not conform. */
  check(answer: { method: string; url: string; statusCode: number; contentType: string | undefined; body: string }): void;
}

type Json = Record<string, unknown>;
interface MediaType { schema?: Json }
interface OpenApiResponse { $ref?: string; content?: Record<string, MediaType> }
interface Operation { operationId?: string; responses?: Record<string, OpenApiResponse> }
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Json; responses?: Record<string, OpenApiResponse> };
}

/** The base against which schemas' `#/components/...` references resolve inside the validator. */
const DOCUMENT_ID = 'https://openapi.hdp.invalid/openapi.json';

/** One path template of the document, matched against concrete paths the way the router does. */
interface PathTemplate {
  template: string;
  pattern: RegExp;
  /** Per segment, 0 for a fixed one and 1 for a parameter: fixed segments win, as in the router. */
  rank: number[];
}

function pathTemplate(template: string): PathTemplate {
  const segments = template.split('/');
  const source = segments.map((segment) => (/^\{\w+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
  return { template, pattern: new RegExp(`^${source}$`), rank: segments.map((segment) => (segment.startsWith('{') ? 1 : 0)) };
}

const byRank = (a: PathTemplate, b: PathTemplate) => {
  for (let i = 0; i < Math.min(a.rank.length, b.rank.length); i++) if (a.rank[i] !== b.rank[i]) return a.rank[i]! - b.rank[i]!;
  return 0;
};

/** `/workbenches/0/status` → `workbenches[0].status`, the field as a person reads it. */
function fieldName(error: ErrorObject): string {
  const parts = error.instancePath.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') parts.push(String(error.params.missingProperty));
  if (error.keyword === 'additionalProperties') parts.push(String(error.params.additionalProperty));
  const field = parts.reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part), '');
  return field || '(the body)';
}

function describeError(error: ErrorObject): string {
  const allowed = error.keyword === 'enum' ? ` ${JSON.stringify(error.params.allowedValues)}` : '';
  const extra = error.keyword === 'additionalProperties' ? ' (not in the document)' : '';
  return `${fieldName(error)}: ${error.message ?? error.keyword}${allowed}${extra}`;
}

// The media type of the document that covers `actual`: itself, else its range (text/...), else any type.
function declaredMediaType(declared: string[], actual: string): string | undefined {
  const range = `${actual.split('/')[0]}/*`;
  return [actual, range, '*/*'].find((candidate) => declared.includes(candidate));
}

/** Every `$ref` to `#/...` made absolute, so that a schema taken out of the document still resolves. */
function anchored(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema), (key, value: unknown) =>
    key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${DOCUMENT_ID}${value}` : value,
  ) as Json;
}

function createConformance(document: OpenApiDocument): ResponseConformance {
  const ajv = new Ajv2020({ strict: false, allErrors: true, unicodeRegExp: false, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas: document.components?.schemas ?? {} } });
  const templates = Object.keys(document.paths).map(pathTemplate);
  const validators = new Map<string, ValidateFunction>();

  const resolveResponse = (response: OpenApiResponse): OpenApiResponse => {
    if (!response.$ref) return response;
    const name = response.$ref.replace('#/components/responses/', '');
    const resolved = document.components?.responses?.[name];
    if (!resolved) throw new Error(`The document refers to ${response.$ref}, which it does not hold`);
    return resolved;
  };

  const findOperation = (method: string, path: string) => {
    const candidates = templates.filter((template) => template.pattern.test(path) && document.paths[template.template]![method]);
    const template = candidates.sort(byRank)[0];
    return template && { template: template.template, operation: document.paths[template.template]![method]! };
  };

  return {
    check({ method, url, statusCode, contentType, body }) {
      const path = url.split('?')[0]!;
      const found = findOperation(method.toLowerCase(), path);
      // Not an operation of the contract: health, the notebook proxy, the docs, a test's own route
      // (every contract route has an operationId).
      if (!found?.operation.operationId) return;
      if (statusCode >= 300 && statusCode < 400) return; // a redirect: no body to check
      const route = `${method.toUpperCase()} ${found.template}`;
      const declared = found.operation.responses?.[String(statusCode)];
      if (!declared) throw new Error(`${route} answered ${statusCode}, a status its OpenAPI document does not declare (body: ${body.slice(0, 300)})`);
      const response = resolveResponse(declared);
      const mediaTypes = Object.keys(response.content ?? {});
      if (mediaTypes.length === 0) {
        if (body.length > 0) throw new Error(`${route} answered ${statusCode} with a body, but the document declares none`);
        return;
      }
      const actual = contentType?.split(';')[0]!.trim().toLowerCase();
      const mediaType = actual && declaredMediaType(mediaTypes, actual);
      if (!mediaType) {
        throw new Error(`${route} answered ${statusCode} as ${actual ?? 'no content type'}, but the document declares ${mediaTypes.join(', ')}`);
      }
      if (mediaType !== 'application/json') return; // a file: its bytes have no schema to check
      const key = `${route} ${statusCode}`;
      let validate = validators.get(key);
      if (!validate) {
        validate = ajv.compile(anchored(response.content![mediaType]!.schema ?? {}));
        validators.set(key, validate);
      }
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch {
        throw new Error(`${route} answered ${statusCode} with a body that is not JSON: ${body.slice(0, 200)}`);
      }
      if (!validate(value)) {
        const problems = (validate.errors ?? []).map(describeError);
        throw new Error(`${route} answered ${statusCode} with a body that does not match its OpenAPI document: ${problems.join('; ')}`);
      }
    },
  };
}

/** Compiled checkers by document: every test app of a run serves the same document, so each is compiled once. */
const checkers = new Map<string, ResponseConformance>();

export function responseConformance(document: unknown): ResponseConformance {
  const { paths, components } = document as OpenApiDocument;
  const key = JSON.stringify({ paths, components });
  let checker = checkers.get(key);
  if (!checker) {
    checker = createConformance({ paths, components });
    checkers.set(key, checker);
  }
  return checker;
}
