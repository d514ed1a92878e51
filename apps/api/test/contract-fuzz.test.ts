import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, ROUTES, type RouteContract, type RouteId } from '@hdp/contract';
import { multipartFile } from './support/multipart';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Hostile input over the whole contract: for every route of ROUTES, random hostile values in its
 * path parameters, query parameters and body fields, always with at least one value no route may
 * accept (a NUL, an unpaired surrogate, a body nested too deep or too large, a path that is not
 * UTF-8). Every answer must be a 4xx with a `detail`, and nothing may be written: the caller holds
 * every role, so no denial is audited either.
 *
 * Runs per route are few (the whole file is a few hundred requests per database); set
 * FUZZ_RUNS to search longer.
 */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 6);

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp({ CLAMAV: 'none' });
  token = (await t.userWithRoles([...ROLES], 'every-role@example.org')).token;
});
afterAll(() => t.close());

/** A nesting of `depth` arrays and objects, kept as a marker so the JSON text is written without recursion. */
class Deep {
  constructor(readonly depth: number) {}
  toJson = () => `${'{"a":['.repeat(this.depth)}1${']}'.repeat(this.depth)}`;
}
/** A string with a NUL: the one unacceptable text that can travel in any encoding (multipart parts are UTF-8). */
const withNul = fc.string({ maxLength: 4 }).map((s) => `${s}\u0000${s}`);
/**
 * As `withNul`, without what would end a multipart header early (quotes, line breaks) or be cut
 * off a file name with its directory (slashes): those test the parser, not the name.
 */
const PART_UNSAFE = /["\\\r\n/]/;
const withNulInPart = withNul.filter((s) => !PART_UNSAFE.test(s));
/** A string no route may accept. */
const unacceptable = fc.oneof(withNul, fc.constantFrom('\ud800', 'a\udc00b', '\udbff', 'name\ud83d'));
/** Values that are wrong for most fields, or at their edges. */
const hostileScalar = fc.oneof(
  unacceptable,
  fc.constantFrom(
    '0000-01-01', '99999-12-31', '2026-02-30', '0001-01-01T00:00:00+14:00', '-1', '1e308', 'NaN', 'Infinity', '', ' ',
    "' OR '1'='1", '%', '../../etc/passwd', '00000000-0000-4000-8000-000000000000', 'ADMIN', 'x'.repeat(70_000),
  ),
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -1e308, 2 ** 31),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 30, unit: 'binary' }),
);
const hostileValue = fc.oneof(
  { weight: 4, arbitrary: hostileScalar },
  fc.array(hostileScalar, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), hostileScalar, { maxKeys: 3 }),
  fc.integer({ min: 33, max: 5000 }).map((depth) => new Deep(depth)),
);

/** JSON text for a generated value; Deep markers are written out flat. */
function toJson(value: unknown): string {
  if (value instanceof Deep) return value.toJson();
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value && typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`).join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** A value as it goes into a URL: well-formed strings percent-encoded as UTF-8, others as bytes that are not UTF-8. */
function toUrlPart(value: unknown): string {
  const text = value instanceof Deep ? value.toJson() : typeof value === 'string' ? value : toJson(value);
  return text.isWellFormed() ? encodeURIComponent(text) : `${encodeURIComponent(text.toWellFormed())}%ED%A0%80`;
}

const shapeKeys = (schema: unknown) =>
  schema && typeof schema === 'object' && 'shape' in schema ? Object.keys((schema as { shape: object }).shape) : [];

interface Case {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body?: Record<string, unknown> | Deep | 'oversized';
  /** Where the value no route may accept was put. */
  anchor: 'path' | 'query' | 'body';
}

/** Cases for one route: hostile values in its own fields (and a stray one), one surely unacceptable value placed somewhere. */
function casesFor(route: RouteContract) {
  const pathKeys = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const queryKeys = [...shapeKeys(route.querystring), 'stray'];
  const takesBody = route.method !== 'GET' && route.method !== 'DELETE';
  const bodyKeys = [...shapeKeys(route.body), 'stray'];
  const fields = (keys: string[]) => fc.record(Object.fromEntries(keys.map((k) => [k, hostileValue])), { requiredKeys: [] });
  const anchors: Case['anchor'][] = ['query', ...(pathKeys.length ? (['path'] as const) : []), ...(takesBody ? (['body'] as const) : [])];
  return fc
    .record({
      path: fc.record(Object.fromEntries(pathKeys.map((k) => [k, hostileValue]))),
      query: fields(queryKeys),
      body: takesBody ? fc.oneof({ weight: 8, arbitrary: fields(bodyKeys) }, fc.constant(new Deep(40)), fc.constant('oversized' as const)) : fc.constant(undefined),
      anchor: fc.constantFrom(...anchors),
      anchorKey: fc.nat(),
      value: unacceptable,
    })
    .map(({ anchor, anchorKey, value, ...parts }): Case => {
      const place = (target: Record<string, unknown>, keys: string[]) => ({ ...target, [keys[anchorKey % keys.length]!]: value });
      if (anchor === 'path') return { ...parts, anchor, path: place(parts.path, pathKeys) };
      if (anchor === 'query') return { ...parts, anchor, query: place(parts.query, queryKeys) };
      const body = parts.body instanceof Deep || parts.body === 'oversized' || !parts.body ? parts.body : place(parts.body, bodyKeys);
      return { ...parts, anchor, body };
    });
}

function requestOf(route: RouteContract, c: Case) {
  const url = route.path.replace(/\{(\w+)\}/g, (_m, key: string) => toUrlPart(c.path[key]));
  const query = Object.entries(c.query)
    .flatMap(([k, v]) => (Array.isArray(v) ? v.map((item) => [k, item] as const) : [[k, v] as const]))
    .map(([k, v]) => `${k}=${toUrlPart(v)}`)
    .join('&');
  const payload =
    c.body === undefined ? undefined : c.body === 'oversized' ? `{"name":"${'x'.repeat(t.config.bodyLimitBytes)}"}` : toJson(c.body);
  return {
    method: route.method,
    url: query ? `${url}?${query}` : url,
    token,
    ...(payload !== undefined && { payload, headers: { 'content-type': 'application/json' } }),
  };
}

/** Rows in every table a request could write. */
const WRITABLE = ['audit_log', 'users', 'invitations', 'refresh_tokens', 'queries', 'query_executions', 'cohorts', 'cohort_versions', 'documents'];
async function rowCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of WRITABLE) {
    const result = (await t.services.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as { rows: { n: number }[] };
    counts[table] = Number(result.rows[0]!.n);
  }
  return counts;
}

/** The answer is a refusal a person can read, and nothing changed. */
async function expectRefusedUnchanged(send: () => Promise<{ statusCode: number; body: string }>, label: string) {
  const before = await rowCounts();
  const response = await send();
  expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
  const detail: unknown = JSON.parse(response.body).detail;
  expect(typeof detail === 'string' && detail.length > 0, `${label}: ${response.body.slice(0, 300)}`).toBe(true);
  expect(await rowCounts(), label).toEqual(before);
}

describe('hostile input over every route of the contract', () => {
  const routes = (Object.entries(ROUTES) as [RouteId, RouteContract][]).filter(([, route]) => route.raw !== 'multipart-body');

  it.each(routes)('%s: 4xx with a detail, nothing written', async (id, route) => {
    await fc.assert(
      fc.asyncProperty(casesFor(route), async (c) => {
        const request = requestOf(route, c);
        await expectRefusedUnchanged(() => t.request(request), `${id} ${request.method} ${request.url.slice(0, 200)}`);
      }),
      { numRuns: RUNS_PER_ROUTE },
    );
  });

  it('uploadDocument: hostile file names, fields and bodies are 4xx with a detail, nothing written', async () => {
    const hostileUpload = fc.oneof(
      withNulInPart.map((name) => multipartFile('file', name, 'text/plain', Buffer.from('hello\n'))),
      fc.tuple(withNulInPart, fc.string({ maxLength: 8 }).filter((s) => !PART_UNSAFE.test(s))).map(([value, name]) => {
        const file = multipartFile('file', `${name}.txt`, 'text/plain', Buffer.from('hello\n'));
        const boundary = file.headers['content-type'].split('boundary=')[1]!;
        const field = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\n${value}\r\n`);
        return { ...file, payload: Buffer.concat([field, file.payload]) };
      }),
      fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ payload: Buffer.from(bytes), headers: { 'content-type': 'multipart/form-data; boundary=x' } })),
      fc.constantFrom('multipart/form-data', 'multipart/form-data; boundary=', 'text/plain', 'application/x-www-form-urlencoded').map((type) => ({
        payload: Buffer.from('--x\r\nfoo\r\n'),
        headers: { 'content-type': type },
      })),
    );
    await fc.assert(
      fc.asyncProperty(hostileUpload, async (upload) => {
        await expectRefusedUnchanged(() => t.request({ method: 'POST', url: '/api/v1/documents/', token, ...upload }), 'uploadDocument');
      }),
      { numRuns: RUNS_PER_ROUTE * 4 },
    );
  });
});
