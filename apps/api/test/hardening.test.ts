import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, type QueryExecution } from '@hdp/contract';
import { queryExecutionRepository, queryRepository } from '../src/queries/query-repository';
import { INTERRUPTED_REASON, QueryExecutionWorker } from '../src/queries/query-execution-worker';
import { loadWarehouse } from '../src/warehouse/warehouse-loader';
import { multipartFile } from './support/multipart';
import { ADMIN_EMAIL, PUBLIC_URL, startTestApp, type TestApp } from './support/test-app';
import { testDbKind } from './support/test-database';

/**
 * One test (or a few) per finding of the 2026-11-23 security review, each through HTTP: hostile
 * input answers 4xx with a `detail` and writes nothing, and what is written can always be verified.
 */
let t: TestApp;
let dataDir: string;
type Account = { token: string; user: { id: string; email: string } };
let rita: Account;
let adminToken: string;

const rowsOf = async (query: ReturnType<typeof sql>) =>
  ((await t.services.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
const auditCount = async () => Number((await rowsOf(sql`select count(*)::int as n from audit_log`))[0]!.n);
const WOMEN = { combinator: 'and', rules: [{ field: 'person.gender_concept_id', operator: '=', value: 8532 }] };
const SECURITY_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' };

/** A JSON text nesting `depth` objects around a value, written out so no serialiser recurses. */
const nested = (depth: number, inner = '1') => `${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-hardening-'));
  t = await startTestApp({ DATA_DIR: dataDir, CLAMAV: 'none', QUERY_TIMEOUT_MS: '20000' });
  adminToken = (await t.signIn(ADMIN_EMAIL)).id_token;
  rita = await t.userWithRoles(['RESEARCHER'], 'rita@example.org');
  await loadWarehouse(t.services, { kind: 'synthetic', persons: 400, seed: 13 }, { actorEmail: 'test' });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function waitForExecution(queryId: string, executionId: string): Promise<QueryExecution> {
  for (let i = 0; i < 400; i++) {
    const response = await t.request({ method: 'GET', url: `/api/v1/queries/${queryId}/executions/${executionId}/`, token: rita.token });
    const execution = response.json() as QueryExecution;
    if (execution.status === 'SUCCEEDED' || execution.status === 'FAILED') return execution;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the execution did not finish');
}

async function savedQuery(name: string): Promise<string> {
  const response = await t.request({ method: 'POST', url: '/api/v1/queries/', token: rita.token, payload: { name, query: WOMEN } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

const executedEntries = (executionId: string) =>
  rowsOf(sql`select outcome, message from audit_log where event_type = 'QUERY_EXECUTED' and details->>'execution_id' = ${executionId} order by seq`);

describe('finding 1: unpaired surrogates never reach the audit chain', () => {
  it('refuses a cohort name with a lone surrogate, naming the field, and the chain stays intact', async () => {
    const queryId = await savedQuery('surrogates');
    const started = await t.request({ method: 'POST', url: `/api/v1/queries/${queryId}/executions/`, token: rita.token });
    const execution = await waitForExecution(queryId, started.json().id);
    const created = await t.request({ method: 'POST', url: '/api/v1/cohorts/', token: rita.token, payload: { name: 'Draft', executionId: execution.id } });
    expect(created.statusCode, created.body).toBe(201);
    const before = await auditCount();

    const response = await t.request({
      method: 'PATCH', url: `/api/v1/cohorts/${created.json().id}/`, token: rita.token,
      payload: '{"name":"a\\ud800b"}', headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: 'body.name: must not contain unpaired UTF-16 surrogates (it is not valid Unicode text)' });
    expect(await auditCount()).toBe(before);
    const verified = await t.request({ method: 'GET', url: '/api/v1/logs/verify/', token: adminToken });
    expect(verified.json()).toMatchObject({ ok: true, first_broken: null });
  });

  it('refuses a lone low surrogate in a key of a query tree', async () => {
    const response = await t.request({
      method: 'POST', url: '/api/v1/queries/execute/', token: rita.token,
      payload: '{"query":{"rules":[],"\\udc00":1}}', headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toBe('body.query: a property name must not contain unpaired UTF-16 surrogates (it is not valid Unicode text)');
  });
});

describe('finding 8: NUL characters are refused wherever they come from', () => {
  it.each([
    ['GET', '/api/v1/users/?search=%00', undefined, 'query.search'],
    ['GET', '/api/v1/logs/?search=a%00b', undefined, 'query.search'],
    ['GET', '/api/v1/queries/?name_search=%00', undefined, 'query.name_search'],
    ['GET', '/api/v1/cohorts/?tags=a&tags=%00', undefined, 'query.tags.1'],
    ['GET', '/api/v1/users/%00/', undefined, 'path.userId'],
    ['POST', '/api/v1/queries/', { name: 'a\u0000b', query: { rules: [] } }, 'body.name'],
    ['POST', '/api/v1/queries/execute/', { query: { rules: [{ id: '8532\u0000', field: 'person.age', operator: '>', value: 1 }] } }, 'body.query.rules.0.id'],
    ['POST', '/api/v1/users/', { invitations: [{ email: 'x@example.org', name: 'N\u0000', roles: ['RESEARCHER'] }] }, 'body.invitations.0.name'],
  ] as const)('%s %s answers 400 naming the field', async (method, url, payload, field) => {
    const before = await auditCount();
    const response = await t.request({ method, url, token: adminToken, ...(payload && { payload }) });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toBe(`${field}: must not contain NUL (U+0000) characters`);
    expect(await auditCount()).toBe(before);
  });

  it('refuses a NUL in an upload file name, and stores nothing', async () => {
    const before = await auditCount();
    const file = multipartFile('file', 'a\u0000b.txt', 'text/plain', Buffer.from('hello\n'));
    const response = await t.request({ method: 'POST', url: '/api/v1/documents/', token: rita.token, ...file });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: 'body.file.filename: must not contain NUL (U+0000) characters' });
    expect(await auditCount()).toBe(before);
    expect((await rowsOf(sql`select id from documents`)).length).toBe(0);
  });
});

describe('findings 4 and 10: JSON bodies are limited in depth before validation', () => {
  it.each([
    ['a rule value nested 4,500 deep', `{"query":{"rules":[{"field":"person.gender_concept_id","operator":"=","value":${nested(4500)}}]}}`],
    ['a rule value nested 1,000 deep', `{"query":{"rules":[{"field":"person.gender_concept_id","operator":"=","value":${nested(1000)}}]}}`],
    ['groups nested 50,000 deep', `{"query":${'{"rules":['.repeat(50_000)}${']}'.repeat(50_000)}}`],
  ])('refuses %s with 400, runs nothing and audits nothing', async (_name, body) => {
    const before = await auditCount();
    const response = await t.request({ method: 'POST', url: '/api/v1/queries/execute/', token: rita.token, payload: body, headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: `body: nests objects and arrays more than ${LIMITS.jsonMaxDepth} deep` });
    expect(await auditCount()).toBe(before);
  });

  it('still accepts a tree at the group limit, with structured values', async () => {
    let tree: Record<string, unknown> = { rules: [{ field: 'person.gender_concept_id', operator: 'in', value: [{ concept_id: 8532 }] }] };
    for (let depth = 1; depth < LIMITS.queryMaxDepth; depth++) tree = { combinator: 'and', rules: [tree] };
    const response = await t.request({ method: 'POST', url: '/api/v1/queries/execute/', token: rita.token, payload: { query: tree } });
    expect(response.statusCode, response.body).toBe(200);
  });
});

describe('findings 5 and 9: every run is audited with its outcome', () => {
  it('refuses before running a tree the audit log could not store (NUL or surrogate in an unknown key)', async () => {
    const before = await auditCount();
    for (const body of ['{"query":{"note":"\\u0000","rules":[]}}', '{"query":{"note":"\\ud800","rules":[]}}']) {
      const response = await t.request({ method: 'POST', url: '/api/v1/queries/execute/', token: rita.token, payload: body, headers: { 'content-type': 'application/json' } });
      expect(response.statusCode).toBe(400);
      expect(response.json().detail).toMatch(/^body\.query\.note: /);
    }
    expect(await auditCount()).toBe(before);
  });

  it("writes a saved query's result and its audit entry in one transaction: no result stands without its entry", async () => {
    const queryId = await savedQuery('atomic');
    // The audit log refuses this one success entry, as a full disk or a lost connection might.
    await t.services.db.execute(sql.raw(`
      create function refuse_query_success() returns trigger language plpgsql as $$
      begin
        if new.event_type = 'QUERY_EXECUTED' and new.outcome = 'SUCCESS' and new.resource_id = '${queryId}' then
          raise exception 'audit write refused for the test';
        end if;
        return new;
      end $$`));
    await t.services.db.execute(sql.raw('create trigger refuse_query_success before insert on audit_log for each row execute function refuse_query_success()'));
    try {
      const started = await t.request({ method: 'POST', url: `/api/v1/queries/${queryId}/executions/`, token: rita.token });
      const execution = await waitForExecution(queryId, started.json().id);
      expect(execution).toMatchObject({ status: 'FAILED', result: null });
      expect(await executedEntries(execution.id)).toEqual([expect.objectContaining({ outcome: 'FAILURE' })]);
    } finally {
      await t.services.db.execute(sql.raw('drop trigger refuse_query_success on audit_log'));
      await t.services.db.execute(sql.raw('drop function refuse_query_success()'));
    }
  });

  it('marks runs abandoned by a stopped process FAILED and audits them when a worker starts', async () => {
    const queryId = await savedQuery('interrupted');
    const row = await queryRepository.findById(t.services.db, queryId);
    const context = { actorId: rita.user.id, actorEmail: rita.user.email, clientAddress: null, userAgent: null, requestId: null };
    await t.services.queryWorker.stop();
    const worker = new QueryExecutionWorker({ db: t.services.db, warehouse: t.services.warehouse, config: t.config, singleOwner: testDbKind() === 'pglite' });
    try {
      const abandoned = await queryExecutionRepository.insert(t.services.db, { queryId, queryVersion: 1, query: row!.query, requestedBy: rita.user.id, auditContext: context });
      // Started long enough ago that, on a shared server, its time limit has passed too.
      await t.services.db.execute(sql`update query_executions set status = 'RUNNING', started_at = now() - interval '1 hour' where id = ${abandoned.id}`);
      await worker.start();
      expect(await waitForExecution(queryId, abandoned.id)).toMatchObject({ status: 'FAILED', error: INTERRUPTED_REASON });
      const entries = await t.request({ method: 'GET', url: '/api/v1/logs/?event_type=QUERY_EXECUTED&outcome=FAILURE&limit=100', token: adminToken });
      const forRun = entries.json().entries.filter((e: { details: { execution_id?: string } }) => e.details.execution_id === abandoned.id);
      expect(forRun).toEqual([expect.objectContaining({ actor: { id: rita.user.id, email: rita.user.email }, message: expect.stringContaining(INTERRUPTED_REASON) })]);
    } finally {
      await worker.stop();
      await t.services.queryWorker.start();
    }
  });
  // A run another live process still holds (its job's lease is current) is left alone: see jobs.test.ts.
});

describe('finding 11: dates out of range and malformed multipart bodies', () => {
  it.each(['start_date=0000-01-01', 'end_date=0000-12-31', 'start_date=2026-02-31', 'start_date=0001-01-01T00:00:00%2B14:00'])(
    '%s answers 400 naming the parameter',
    async (query) => {
      const response = await t.request({ method: 'GET', url: `/api/v1/logs/?${query}`, token: adminToken });
      expect(response.statusCode).toBe(400);
      // An impossible day fails the date format itself; a real date outside the range fails the range.
      expect(response.json().detail).toMatch(new RegExp(`^query\\.${query.split('=')[0]}: (Invalid input|must be a real date in the years 0001 to 9999)`));
    },
  );

  it.each([
    ['no boundary', 'multipart/form-data', 'xx'],
    ['a part without headers', 'multipart/form-data; boundary=x', '--x\r\nfoo\r\n'],
    ['a file cut short', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello'],
  ])('%s answers 400 and stores nothing', async (_name, contentType, body) => {
    const before = await auditCount();
    const response = await t.request({ method: 'POST', url: '/api/v1/documents/', token: rita.token, payload: body, headers: { 'content-type': contentType } });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toMatch(/^body: the multipart\/form-data body is malformed/);
    expect(await auditCount()).toBe(before);
    expect(fs.readdirSync(path.join(dataDir, 'documents', '.incoming'))).toEqual([]);
  });
});

describe('finding 12: refusals made before any route runs', () => {
  it('an over-long path parameter: 414 with a detail that does not echo it, and the security headers', async () => {
    const response = await t.request({ method: 'GET', url: `/api/v1/queries/${'A'.repeat(400)}/`, token: rita.token });
    expect(response.statusCode).toBe(414);
    expect(response.json()).toEqual({ detail: 'A path parameter is longer than 320 characters.' });
    expect(response.headers).toMatchObject(SECURITY_HEADERS);
    expect(response.headers['x-request-id']).toBeTruthy();
  });

  it('bad percent-encoding: 400 with a detail and the security headers', async () => {
    const response = await t.request({ method: 'GET', url: '/api/v1/queries/%ff%fe/', token: rita.token });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toMatch(/^The URL is not valid/);
    expect(response.headers).toMatchObject(SECURITY_HEADERS);
  });

  it('bad percent-encoding in the query string: 400 with a detail, as in the path', async () => {
    const response = await t.request({ method: 'GET', url: '/api/v1/users/me/?x=%ED%A0%80', token: rita.token });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: 'query: part of the query string is not well-formed percent-encoding (of UTF-8 text)' });
  });

  it.each([
    // `execute` is also a valid value of `/queries/{queryId}/`, which takes PATCH and DELETE.
    ['HEAD', '/api/v1/queries/execute/', 'DELETE, PATCH, POST'],
    ['GET', '/api/v1/queries/execute/', 'DELETE, PATCH, POST'],
    ['HEAD', '/api/v1/auth/refresh/', 'POST'],
    ['PUT', '/api/v1/users/00000000-0000-4000-8000-000000000000/', 'GET, HEAD'],
    ['DELETE', '/api/v1/auth/token/', 'POST'],
    ['POST', '/api/v1/cohorts/00000000-0000-4000-8000-000000000000/', 'GET, HEAD, PATCH'],
  ] as const)('%s %s: 405 with Allow', async (method, url, allow) => {
    const response = await t.request({ method, url, token: rita.token });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe(allow);
    expect(response.headers).toMatchObject(SECURITY_HEADERS);
    if (method !== 'HEAD') expect(response.json().detail).toBe(`${method} is not allowed here; this path allows ${allow}.`);
  });

  it('an unknown path is still 404 with a detail', async () => {
    const response = await t.request({ method: 'GET', url: '/api/v1/nothing/here/' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'No such route: GET /api/v1/nothing/here/' });
  });

  describe('over a real socket', () => {
    let port: number;
    beforeAll(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as net.AddressInfo).port;
    });

    /** Sends raw bytes and reads the whole answer (the server closes the connection). */
    const raw = (request: string) =>
      new Promise<{ status: number; headers: string; body: string }>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
        let data = '';
        socket.on('data', (chunk) => (data += chunk.toString('latin1')));
        socket.on('error', reject);
        socket.on('close', () => {
          const [head = '', body = ''] = data.split('\r\n\r\n');
          resolve({ status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body });
        });
      });

    it('headers too large (5,000 query parameters): 431 with a detail and the security headers', async () => {
      const query = Array.from({ length: 5000 }, (_, i) => `p${i}=1`).join('&');
      const answer = await raw(`GET /api/v1/users/?${query} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(answer.status).toBe(431);
      expect(JSON.parse(answer.body)).toEqual({ detail: 'The request line or headers are too large (the query string counts).' });
      expect(answer.headers).toContain('x-frame-options: deny');
      expect(answer.headers).toContain('cache-control: no-store');
    });

    it('a multipart file cut short, sent over the network: 400 every time', async () => {
      const body = '--x\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello';
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`http://127.0.0.1:${port}/api/v1/documents/`, {
          method: 'POST', headers: { authorization: `Bearer ${rita.token}`, 'content-type': 'multipart/form-data; boundary=x' }, body,
        });
        expect(response.status).toBe(400);
        expect(((await response.json()) as { detail: string }).detail).toMatch(/^body: the multipart\/form-data body is malformed/);
      }
    });

    it('a request that is not HTTP (an unknown method): 400 with a detail', async () => {
      const answer = await raw('BREW /api/v1/users/ HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({ detail: 'The request is not valid HTTP.' });
      expect(answer.headers).toContain('x-content-type-options: nosniff');
    });
  });
});

describe('finding 13: token claims', () => {
  const sign = async (claims: Record<string, unknown>, setup: (jwt: SignJWT) => SignJWT) => {
    const { kid, privateKey } = t.services.signingKeys.signingKey();
    return setup(new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid }).setIssuer(PUBLIC_URL).setAudience('hdp-api')).sign(privateKey);
  };
  const me = (token: string) => t.request({ method: 'GET', url: '/api/v1/users/me/', token });

  it('refuses a validly signed token without exp', async () => {
    const response = await me(await sign({}, (jwt) => jwt.setSubject(t.admin.id).setIssuedAt()));
    expect(response.statusCode).toBe(401);
    expect(response.json().detail).toBe('The token is not valid here: its "exp" claim is missing or invalid.');
  });

  it('refuses a token that lives longer than the issuer issues them for', async () => {
    const response = await me(await sign({}, (jwt) => jwt.setSubject(t.admin.id).setIssuedAt().setExpirationTime('2h')));
    expect(response.statusCode).toBe(401);
    expect(response.json().detail).toMatch(/lives longer than the 600 seconds/);
  });

  it.each([["x' OR '1'='1"], [12345], ['']])('a sub of %j is a 401, not a 500', async (sub) => {
    const response = await me(await sign({ sub }, (jwt) => jwt.setIssuedAt().setExpirationTime('5m')));
    expect(response.statusCode).toBe(401);
    expect(response.json().detail).toBe("The token's subject is not a user of this platform.");
  });
});

describe('finding 14: text uploads with a character across the sniffing window', () => {
  it.each([
    ['text/plain', Buffer.concat([Buffer.alloc(4099, 'a'), Buffer.from('é\n')])],
    ['text/csv', Buffer.concat([Buffer.alloc(4098, 'a'), Buffer.from('€\n')])],
    ['text/plain', Buffer.concat([Buffer.alloc(4097, 'a'), Buffer.from('😀 done\n')])],
  ])('accepts valid UTF-8 (%s)', async (type, content) => {
    const response = await t.request({ method: 'POST', url: '/api/v1/documents/', token: rita.token, ...multipartFile('file', 'notes.txt', type, content) });
    expect(response.statusCode, response.body).toBe(201);
  });

  it('still refuses bytes that are not UTF-8, inside the window or at its end', async () => {
    for (const content of [Buffer.concat([Buffer.alloc(100, 'a'), Buffer.from([0xc3, 0x28]), Buffer.alloc(5000, 'a')]), Buffer.from([0x61, 0xe2, 0x82])]) {
      const response = await t.request({ method: 'POST', url: '/api/v1/documents/', token: rita.token, ...multipartFile('file', 'bad.txt', 'text/plain', content) });
      expect(response.statusCode).toBe(415);
    }
  });
});
