import { STATUS_CODES } from 'node:http';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { ERROR_STATUSES, ROUTES, type RouteContract } from '@hdp/contract';

/**
 * How the OpenAPI document is made from the contract's zod schemas.
 *
 * `jsonSchemaTransform` turns each route's schemas into JSON Schema and points every schema that
 * has an id (`.meta({ id })`) at `#/components/schemas/<id>`; `jsonSchemaTransformObject` writes
 * those schemas into `components` (input schemas as `<id>Input`, since a request body and an answer
 * may differ: defaults, coercions). The rest here is what a generator needs to read the document
 * well: bodies of the routes that are not JSON, a description for every answer, and no schema that
 * no operation uses.
 */
type Transform = NonNullable<FastifyDynamicSwaggerOptions['transform']>;
type TransformObject = NonNullable<FastifyDynamicSwaggerOptions['transformObject']>;
type JsonObject = Record<string, unknown>;

/** The one multipart field every upload takes (see the multipart guard). */
const MULTIPART_FILE_BODY = {
  type: 'object',
  required: ['file'],
  properties: { file: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The file' } },
};

/** A download: the file's bytes, with the content type the file has (a PDF, a CSV, ...). */
const FILE_RESPONSE = {
  description: 'The file, as an attachment with its own content type',
  content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
};

const contractRoute = (operationId: unknown): RouteContract | undefined =>
  typeof operationId === 'string' && Object.hasOwn(ROUTES, operationId)
    ? (ROUTES as Record<string, RouteContract>)[operationId]
    : undefined;

/** Per route: the zod transform, then the bodies no zod schema describes (uploads, files). */
const transform: Transform = (route) => {
  const result = jsonSchemaTransform(route as Parameters<typeof jsonSchemaTransform>[0]) as { schema: JsonObject; url: string };
  const contract = contractRoute(route.schema?.operationId);
  if (!contract?.raw || result.schema.hide) return result;
  const schema = { ...result.schema };
  if (contract.raw === 'multipart-body') {
    schema.consumes = ['multipart/form-data'];
    schema.body = MULTIPART_FILE_BODY;
  }
  if (contract.raw === 'file-response') schema.response = { 200: FILE_RESPONSE, ...(schema.response as JsonObject) };
  return { ...result, schema };
};

/** What an answer with this status means, for the operations whose answers had no description. */
function describeStatus(status: string): string {
  return (ERROR_STATUSES as Record<string, string>)[status] ?? STATUS_CODES[Number(status)] ?? 'Response';
}

/** Every `#/components/schemas/<name>` that `value` refers to. */
function collectRefs(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) collectRefs(item, into);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/')) {
        into.add(decodeURIComponent(child.slice('#/components/schemas/'.length).split('/')[0]!));
      } else collectRefs(child, into);
    }
  }
}

/**
 * Keeps the component schemas the operations use, directly or through other schemas. The zod
 * transform writes each schema with an id twice (as input and as output); the unused half would
 * only add dead types to a generated client.
 */
function usedSchemas(users: unknown, schemas: Record<string, unknown>): Record<string, unknown> {
  const used = new Set<string>();
  collectRefs(users, used);
  const pending = [...used];
  while (pending.length > 0) {
    const found = new Set<string>();
    collectRefs(schemas[pending.pop()!], found);
    for (const name of found) {
      if (used.has(name)) continue;
      used.add(name);
      pending.push(name);
    }
  }
  return Object.fromEntries(Object.keys(schemas).sort().filter((name) => used.has(name)).map((name) => [name, schemas[name]]));
}

const ERROR_SCHEMA_REF = '#/components/schemas/Error';

/** `404` → `NotFound`: the name of the shared error answer for a status. */
const errorResponseName = (status: string) => (STATUS_CODES[Number(status)] ?? `Status${status}`).replace(/[^A-Za-z0-9]/g, '');

/** An error answer whose body is the one error body, `{ detail }`. */
function isErrorBodyAnswer(response: OpenApiResponse): boolean {
  const content = response.content && Object.entries(response.content);
  return content?.length === 1 && content[0]![0] === 'application/json' && content[0]![1].schema?.$ref === ERROR_SCHEMA_REF && !response.headers;
}

type OpenApiResponse = { description?: string; headers?: unknown; content?: Record<string, { schema?: { $ref?: string } }>; $ref?: string };
type OpenApiDocument = JsonObject & {
  paths: Record<string, Record<string, { responses?: Record<string, OpenApiResponse> }>>;
  components: JsonObject & { schemas: Record<string, unknown>; responses?: Record<string, unknown> };
};

/**
 * The whole document: components from the schema registry; the error answers, the same on every
 * operation, written once under `components.responses` and referred to; every answer described;
 * unused schemas dropped.
 */
const transformObject: TransformObject = (documentObject) => {
  const document = jsonSchemaTransformObject(documentObject as Parameters<typeof jsonSchemaTransformObject>[0]) as OpenApiDocument;
  const errorResponses: Record<string, OpenApiResponse> = {};
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations)) {
      const responses = operation.responses ?? {};
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) >= 400 && isErrorBodyAnswer(response)) {
          const name = errorResponseName(status);
          errorResponses[name] ??= {
            description: describeStatus(status),
            ...(status === '429' && { headers: { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } } } }),
            content: { 'application/json': { schema: { $ref: ERROR_SCHEMA_REF } } },
          };
          responses[status] = { $ref: `#/components/responses/${name}` };
        } else if (!response.description || response.description === 'Default Response') {
          response.description = describeStatus(status);
        }
      }
    }
  }
  return {
    ...document,
    components: {
      ...document.components,
      schemas: usedSchemas([document.paths, errorResponses], document.components.schemas),
      responses: { ...document.components.responses, ...errorResponses },
    },
  };
};

export const OPENAPI_TRANSFORMS = { transform, transformObject } satisfies Pick<FastifyDynamicSwaggerOptions, 'transform' | 'transformObject'>;
