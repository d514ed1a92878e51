/**
 * The bad-input sweep: every route of the contract, over real HTTP, with hostile values in each
 * of its path parameters, query parameters and body fields (NUL, unpaired surrogates, huge and
 * deep structures, out-of-range dates and numbers, wrong types), plus the refusals made before
 * any route runs (over-long or badly encoded paths, wrong methods, headers too large, malformed
 * multipart bodies). Counts the requests tried, the 5xx answers (goal 0) and the 4xx answers
 * without a `detail` (goal 0; 501 from routes not built yet is counted apart), then checks that the audit chain still verifies.
 * Usage: npm run bench:bad-input [-- --backend pglite|postgres|both]
 * PostgreSQL: BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres); it
 * creates and drops its own database.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROLES, ROUTES, type RouteContract } from '@hdp/contract';
import { createBenchDatabase } from '../support/postgres';
import { repoRoot, signIn, startApi, stop } from '../support/servers';

const backendArg = process.argv.includes('--backend') ? process.argv[process.argv.indexOf('--backend') + 1] : 'both';
const backends = backendArg === 'both' ? ['pglite', 'postgres'] : [backendArg!];
const out = (line: string) => process.stdout.write(`${line}\n`);
const PASSWORD = 'bad-input-sweep-password';
const EMAIL = 'sweep@example.org';

/** Hostile values for JSON body fields, as JSON text (so unpaired surrogates travel as escapes). */
const BODY_VALUES: Record<string, string> = {
  'NUL': '"a\\u0000b"',
  'lone high surrogate': '"a\\ud800b"',
  'lone low surrogate': '"\\udc00"',
  'huge string': JSON.stringify('x'.repeat(200_000)),
  'deep object (40)': `${'{"a":'.repeat(40)}1${'}'.repeat(40)}`,
  'deep array (5,000)': `${'['.repeat(5000)}${']'.repeat(5000)}`,
  'deep groups (50,000)': `${'{"rules":['.repeat(50_000)}${']}'.repeat(50_000)}`,
  'year 0000': '"0000-01-01"',
  'year 99999': '"99999-12-31"',
  'huge number': '1e308',
  'unsafe integer': '9007199254740993',
  'negative': '-1',
  'wrong type: object': '{"x":1}',
  'wrong type: array': '[1,"a",null]',
  'wrong type: boolean': 'true',
  'null': 'null',
  'SQL': JSON.stringify("' OR '1'='1' --"),
  'key with NUL': '{"a\\u0000":1}',
};
/** Hostile values for query parameters, already percent-encoded. */
const QUERY_VALUES: Record<string, string> = {
  'NUL': 'a%00b',
  'not UTF-8': '%ED%A0%80',
  'bad escape': '%zz',
  'huge': 'x'.repeat(20_000),
  'year 0000': '0000-01-01',
  'invalid day': '2026-02-31',
  'huge number': '1e308',
  'negative': '-1',
  'fraction': '1.5',
  'empty': '',
  'SQL': encodeURIComponent("' OR '1'='1' --"),
};
/** Hostile path parameter values, percent-encoded. */
const PATH_VALUES: Record<string, string> = {
  'NUL': '%00',
  'not UTF-8': '%ED%A0%80',
  'bad escape': '%ff%fe',
  'over-long': 'A'.repeat(400),
  'traversal': '..%2F..%2Fetc%2Fpasswd',
  'not an id': 'not-an-id',
  'unknown id': '00000000-0000-4000-8000-000000000000',
};
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const shapeKeys = (schema: unknown) =>
  schema && typeof schema === 'object' && 'shape' in schema ? Object.keys((schema as { shape: object }).shape) : [];
const samplePath = (route: RouteContract, override?: [string, string]) =>
  route.path.replace(/\{(\w+)\}/g, (_m, key: string) =>
    override && override[0] === key ? override[1] : key === 'userEmail' ? 'someone%40example.org' : key === 'zone' ? 'zone-a' : '00000000-0000-4000-8000-000000000000',
  );

interface Probe {
  label: string;
  method: string;
  url: string;
  body?: string | Buffer;
  contentType?: string;
}

function probes(): Probe[] {
  const list: Probe[] = [];
  for (const [id, route] of Object.entries(ROUTES) as [string, RouteContract][]) {
    const base = samplePath(route);
    for (const key of [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)) {
      for (const [name, value] of Object.entries(PATH_VALUES)) list.push({ label: `${id} path.${key} ${name}`, method: route.method, url: samplePath(route, [key, value]) });
    }
    for (const key of [...shapeKeys(route.querystring), 'stray']) {
      for (const [name, value] of Object.entries(QUERY_VALUES)) list.push({ label: `${id} query.${key} ${name}`, method: route.method, url: `${base}?${key}=${value}` });
    }
    if (route.method !== 'GET' && route.method !== 'DELETE') {
      for (const key of [...shapeKeys(route.body), 'stray']) {
        for (const [name, value] of Object.entries(BODY_VALUES)) {
          list.push({ label: `${id} body.${key} ${name}`, method: route.method, url: base, body: `{${JSON.stringify(key)}:${value}}`, contentType: 'application/json' });
        }
      }
      for (const [name, value] of Object.entries(BODY_VALUES)) {
        list.push({ label: `${id} body ${name}`, method: route.method, url: base, body: value, contentType: 'application/json' });
      }
      list.push({ label: `${id} body over the limit`, method: route.method, url: base, body: `{"a":"${'x'.repeat(1_100_000)}"}`, contentType: 'application/json' });
      list.push({ label: `${id} body not JSON`, method: route.method, url: base, body: '{"a":', contentType: 'application/json' });
      list.push({ label: `${id} body of another type`, method: route.method, url: base, body: 'a=1', contentType: 'application/x-www-form-urlencoded' });
    }
    for (const method of METHODS.filter((m) => m !== route.method)) list.push({ label: `${id} ${method}`, method, url: base });
  }
  const multipart = (head: string, tail = '\r\n--x--\r\n') => Buffer.from(`--x\r\n${head}\r\n\r\nhello${tail}`, 'latin1');
  const uploads: [string, Buffer, string][] = [
    ['file name with NUL', multipart('Content-Disposition: form-data; name="file"; filename="a\u0000b.txt"\r\nContent-Type: text/plain'), 'multipart/form-data; boundary=x'],
    ['field with NUL', Buffer.concat([Buffer.from('--x\r\nContent-Disposition: form-data; name="note"\r\n\r\na\u0000b\r\n', 'latin1'), multipart('Content-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain')]), 'multipart/form-data; boundary=x'],
    ['no boundary', Buffer.from('xx'), 'multipart/form-data'],
    ['part without headers', Buffer.from('--x\r\nfoo\r\n'), 'multipart/form-data; boundary=x'],
    ['cut short', multipart('Content-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain', ''), 'multipart/form-data; boundary=x'],
    ['no file field', multipart('Content-Disposition: form-data; name="other"'), 'multipart/form-data; boundary=x'],
    ['empty body', Buffer.alloc(0), 'multipart/form-data; boundary=x'],
  ];
  for (const [name, body, contentType] of uploads) list.push({ label: `uploadDocument multipart ${name}`, method: 'POST', url: '/api/v1/documents/', body, contentType });
  return list;
}

/** Sends raw bytes over a socket and reads the status line and body (for what fetch will not send). */
function raw(port: number, request: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(data.split(' ')[1]), body: data.split('\r\n\r\n')[1] ?? '' }));
  });
}

async function sweep(backend: string): Promise<boolean> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-bench-sweep-'));
  const database = backend === 'postgres' ? await createBenchDatabase() : undefined;
  const env = { DATA_DIR: dataDir, DEMO_PERSONS: '500', CLAMAV: 'none', ...(database && { DATABASE_URL: database.url }) };
  let api: Awaited<ReturnType<typeof startApi>> | undefined;
  try {
    // An account holding every role, so that requests reach validation rather than a 403.
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/hdp.ts', 'user', 'create', '--email', EMAIL, '--password', PASSWORD, '--roles', ROLES.join(',')], {
      cwd: path.join(repoRoot, 'apps/api'),
      env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    });
    api = await startApi(env);
    const token = await signIn(api.url, EMAIL, PASSWORD);
    const all = probes();
    let serverErrors = 0;
    let withoutDetail = 0;
    let headRefusals = 0;
    let notImplemented = 0;
    const statuses = new Map<number, number>();
    const problems: string[] = [];
    const started = performance.now();
    const record = (label: string, status: number, body: string, isHead = false) => {
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status === 501) {
        notImplemented += 1; // a contract route still without its handler: refused on purpose, with a detail
      } else if (status >= 500) {
        serverErrors += 1;
        problems.push(`${status} ${label}: ${body.slice(0, 160)}`);
      } else if (status >= 400 && isHead) {
        headRefusals += 1; // HEAD answers carry no body by definition
      } else if (status >= 400) {
        let detail: unknown;
        try {
          detail = JSON.parse(body).detail;
        } catch {
          detail = undefined;
        }
        if (typeof detail !== 'string' || detail === '') {
          withoutDetail += 1;
          problems.push(`${status} without detail ${label}: ${body.slice(0, 160)}`);
        }
      }
    };
    for (const probe of all) {
      const response = await fetch(`${api.url}${probe.url}`, {
        method: probe.method,
        headers: { authorization: `Bearer ${token}`, ...(probe.contentType && { 'content-type': probe.contentType }) },
        ...(probe.body !== undefined && { body: probe.body }),
      });
      record(probe.label, response.status, await response.text(), probe.method === 'HEAD');
    }
    const query = Array.from({ length: 5000 }, (_, i) => `p${i}=1`).join('&');
    for (const [label, request] of [
      ['headers too large (query string)', `GET /api/v1/users/?${query} HTTP/1.1\r\nHost: x\r\n\r\n`],
      ['headers too large (one header)', `GET /api/v1/users/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
      ['unknown method', 'BREW /api/v1/users/ HTTP/1.1\r\nHost: x\r\n\r\n'],
      ['not HTTP', 'hello\r\n\r\n'],
    ] as const) {
      const answer = await raw(api.port, request);
      record(label, answer.status, answer.body);
    }
    const tried = all.length + 4;
    const seconds = (performance.now() - started) / 1000;
    const verify = (await (await fetch(`${api.url}/api/v1/logs/verify/`, { headers: { authorization: `Bearer ${token}` } })).json()) as { ok: boolean; entries: number };
    out(`${backend}: ${tried} requests in ${seconds.toFixed(1)} s`);
    out(`  5xx: ${serverErrors} (goal 0)   4xx without detail: ${withoutDetail} (goal 0)   HEAD refusals (no body by definition): ${headRefusals}   501 (routes not built yet): ${notImplemented}`);
    out(`  by status: ${[...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ')}`);
    out(`  audit chain after the sweep: ${verify.ok ? 'intact' : 'BROKEN'} (${verify.entries} entries)`);
    for (const problem of problems.slice(0, 20)) out(`  ! ${problem}`);
    return serverErrors === 0 && withoutDetail === 0 && verify.ok;
  } finally {
    if (api) await stop(api.child);
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

let ok = true;
for (const backend of backends) ok = (await sweep(backend)) && ok;
process.exitCode = ok ? 0 : 1;
