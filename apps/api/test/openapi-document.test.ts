import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import { ROUTES, type RouteContract } from '@hdp/contract';
import { startTestApp, type TestApp } from './support/test-app';
import { responseConformance } from './support/response-conformance';
import { SPEC_CALLS } from './support/spec-calls';

const run = promisify(execFile);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

type Operation = { operationId?: string; security?: unknown; requestBody?: unknown; responses: Record<string, { $ref?: string; content?: Record<string, { schema?: { $ref?: string } }> }> };
type Document = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown>; responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }> } };

let t: TestApp;
let base: string;
let document: Document;
let workDir: string;
beforeAll(async () => {
  t = await startTestApp();
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  // Over HTTP from the running app, as a client developer would fetch it.
  const response = await fetch(`${base}/api/v1/openapi.json`);
  expect(response.status).toBe(200);
  document = (await response.json()) as Document;
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-openapi-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

const operationOf = (route: RouteContract) => document.paths[route.path]?.[route.method.toLowerCase()];

describe('the served OpenAPI document', () => {
  it('is valid OpenAPI 3.1: every reference resolves', async () => {
    expect(document.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it('holds every call of spec §7 with its method and path', () => {
    const calls = Object.entries(document.paths).flatMap(([route, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${route}`));
    expect(calls).toEqual(expect.arrayContaining(SPEC_CALLS));
  });

  it('describes every operation of the contract: its bodies, its answers with their error body, and its security', () => {
    for (const [id, route] of Object.entries(ROUTES) as [string, RouteContract][]) {
      const operation = operationOf(route);
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(operation!.operationId).toBe(id);
      expect(operation!.security, id).toEqual('public' in route.access ? undefined : [{ bearerAuth: [] }]);
      if (route.body || route.raw === 'multipart-body') expect(operation!.requestBody, id).toBeDefined();
      const success = Object.keys(operation!.responses).filter((status) => status.startsWith('2'));
      expect(success.length, id).toBeGreaterThan(0);
      for (const status of success) {
        if (status !== '204') expect(Object.keys(operation!.responses[status]!.content ?? {}), `${id} ${status}`).not.toHaveLength(0);
      }
      for (const status of ['400', '401', '403', '404', '500']) {
        const ref = operation!.responses[status]?.$ref;
        expect(ref, `${id} ${status}`).toMatch(/^#\/components\/responses\/\w+$/);
        const shared = document.components.responses[ref!.split('/').pop()!]!;
        expect(shared.content['application/json']!.schema.$ref).toBe('#/components/schemas/Error');
      }
    }
    expect(document.components.schemas.Error).toMatchObject({ required: ['detail'] });
  });

  it('names its schemas for generated code: inputs end in Input, and no schema goes unused', () => {
    const names = Object.keys(document.components.schemas);
    expect(names).toEqual(expect.arrayContaining(['WorkbenchCreateInput', 'QueryCreateInput', 'Query', 'QueryExecution', 'Workbench', 'Error']));
    for (const name of names) expect(name).toMatch(/^[A-Z][A-Za-z]+$/);
    const text = JSON.stringify({ paths: document.paths, responses: document.components.responses, schemas: document.components.schemas });
    for (const name of names) expect(text, name).toContain(`"#/components/schemas/${name}"`);
  });

  it('generates a typed client with openapi-typescript that types three calls: create a query, run it, read a workbench', async () => {
    // A default is filled in by the API, so a field that has one may be left out of a request body
    // (openapi-typescript would otherwise require it; the README's command says the same).
    const types = astToString(await openapiTS(new URL(`${base}/api/v1/openapi.json`), { defaultNonNullable: false }));
    fs.writeFileSync(path.join(workDir, 'hdp-api.d.ts'), types);
    fs.writeFileSync(path.join(workDir, 'client.ts'), CLIENT_USING_THE_TYPES);
    const result = await run(process.execPath, [tsc, '--noEmit', '--strict', '--skipLibCheck', '--target', 'es2022', '--module', 'esnext',
      '--moduleResolution', 'bundler', '--lib', 'es2022,dom', 'client.ts'], { cwd: workDir }).catch((error: { stdout: string }) => error);
    expect(result.stdout, 'tsc found type errors in a client of the generated types').toBe('');
  }, 60_000);

  it('is what Swagger UI shows', async () => {
    const ui = await fetch(`${base}/api/v1/docs/json`);
    expect(await ui.json()).toEqual(document);
    expect((await fetch(`${base}/api/v1/docs/`)).headers.get('content-type')).toMatch(/text\/html/);
  });
});

describe('the response conformance check', () => {
  it('names the route, the status and the field of an answer that does not match the document', () => {
    const conformance = responseConformance(document);
    const answer = { method: 'GET', url: '/api/v1/workbenches/?limit=5', contentType: 'application/json; charset=utf-8' };
    expect(() => conformance.check({ ...answer, statusCode: 200, body: '{"workbenches":[],"total":0,"total_capped":false}' })).not.toThrow();
    expect(() => conformance.check({ ...answer, statusCode: 200, body: '{"workbenches":[],"total":"none","total_capped":false}' })).toThrow(
      'GET /api/v1/workbenches/ answered 200 with a body that does not match its OpenAPI document: total: must be integer',
    );
    expect(() => conformance.check({ ...answer, statusCode: 200, body: '{"workbenches":[{"id":"x"}],"total":1,"total_capped":false}' })).toThrow(/workbenches\[0\]\.name: must have required property/);
    expect(() => conformance.check({ ...answer, statusCode: 404, body: '{"message":"gone"}' })).toThrow(/GET \/api\/v1\/workbenches\/ answered 404 .*detail: must have required property/);
    expect(() => conformance.check({ ...answer, statusCode: 418, body: '{"detail":"x"}' })).toThrow('GET /api/v1/workbenches/ answered 418, a status its OpenAPI document does not declare');
    // The fixed segment wins over the parameter, as in the router: /users/me/ is getMe, not getUser.
    expect(() => conformance.check({ method: 'GET', url: '/api/v1/users/me/', statusCode: 200, contentType: 'application/json', body: '{}' })).toThrow(/^GET \/api\/v1\/users\/me\/ answered 200/);
    // Not checked: paths the document does not describe, and files.
    expect(() => conformance.check({ method: 'GET', url: '/healthz', statusCode: 200, contentType: 'text/plain', body: 'ok' })).not.toThrow();
    expect(() => conformance.check({ method: 'GET', url: '/api/v1/documents/00000000-0000-4000-8000-000000000000/', statusCode: 200, contentType: 'application/pdf', body: '%PDF' })).not.toThrow();
  });
});

/** A client an integrator could write: if the generated types were missing or loose, this would not type-check. */
const CLIENT_USING_THE_TYPES = `
import type { paths } from './hdp-api';

type Json<Op> = Op extends { content: { 'application/json': infer Body } } ? Body : never;
type CreateQuery = paths['/api/v1/queries/']['post'];
type RunQuery = paths['/api/v1/queries/{queryId}/executions/']['post'];
type ReadWorkbench = paths['/api/v1/workbenches/{workbenchId}/']['get'];

async function call<T>(url: string, token: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, { ...init, headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' } });
  return (await response.json()) as T;
}

export async function createAndRun(base: string, token: string): Promise<string> {
  const body: Json<CreateQuery['requestBody']> = { name: 'Over 40', query: { combinator: 'and', rules: [{ field: 'age', operator: '>', value: 40 }] } };
  const query = await call<Json<CreateQuery['responses'][201]>>(base + '/api/v1/queries/', token, { method: 'POST', body: JSON.stringify(body) });
  const version: number = query.version;
  const execution = await call<Json<RunQuery['responses'][202]>>(base + '/api/v1/queries/' + query.id + '/executions/', token, { method: 'POST' });
  const status: 'PENDING' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' = execution.status;
  const persons: number | null | undefined = execution.result?.person_count;
  // @ts-expect-error a saved query has no such field: the types are exact, not any
  void query.no_such_field;
  return status + version + persons;
}

export async function readWorkbench(base: string, token: string, workbenchId: string): Promise<string> {
  const path: ReadWorkbench['parameters']['path'] = { workbenchId };
  const workbench = await call<Json<ReadWorkbench['responses'][200]>>(base + '/api/v1/workbenches/' + path.workbenchId + '/', token);
  const problem = await call<Json<ReadWorkbench['responses'][404]>>(base + '/api/v1/workbenches/' + workbenchId + '/', token);
  const detail: string = problem.detail;
  return workbench.name + workbench.id + detail;
}
`;
