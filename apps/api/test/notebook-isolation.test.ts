import { existsSync, mkdtempSync, rmSync, statSync, symlinkSync, chmodSync, unlinkSync, renameSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notebookRepository } from '../src/notebooks/notebook-repository';
import { LocalNotebookDriver } from '../src/notebooks/runtime/local-driver';
import type { NotebookRuntimeSpec } from '../src/notebooks/runtime/runtime-driver';
import { KernelConnection } from './support/jupyter-kernel';
import { notebookOrigin, openedCookie, resolveLocalhostSubdomains } from './support/notebook-hosts';
import { ADMIN_EMAIL, startTestApp, type TestApp } from './support/test-app';

/**
 * What one notebook can do to the platform and to another notebook, tried from inside as an
 * attacker would: through the kernel, the proxy's HTTP and WebSocket, and raw requests.
 * Two notebooks in two workbenches (A and B), with a small disk quota.
 */
const QUOTA_MB = 48;

interface Opened {
  spec: NotebookRuntimeSpec;
  base: string;
  cookie: string;
  kernelId: string;
  kernel: KernelConnection;
}

let dataDir: string;
let canaryDir: string;
let testApp: TestApp;
let origin: string;
let driver: LocalNotebookDriver;
let a: Opened;
let b: Opened;
/** What reached the root-only canary socket: nothing may. */
const canaryHits: string[] = [];
let canary: net.Server;
let canaryPath: string;

async function workbench(name: string): Promise<string> {
  const created = await testApp.request({
    method: 'POST',
    url: '/api/v1/workbenches/',
    token: (await testApp.signIn(ADMIN_EMAIL)).id_token,
    payload: { name, purpose: 'To check that one notebook cannot reach another notebook or the platform.' },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().id as string;
}

async function openNotebook(notebookId: string, workbenchId: string): Promise<Opened> {
  const spec: NotebookRuntimeSpec = {
    notebookId,
    workbenchId,
    environment: 'python3-datascience',
    limits: { cpuLimit: 1, memoryLimitMb: 768, maxProcesses: 96 },
  };
  await notebookRepository.insert(testApp.services.db, {
    id: notebookId,
    workbenchId,
    ownerId: testApp.admin.id,
    name: `Isolation ${notebookId.slice(0, 4)}`,
    environment: spec.environment,
    zone: 'australia-southeast1-a',
    machineType: 'n1-standard-1',
    status: 'RUNNING',
  });
  await driver.create(spec);
  return connect(spec);
}

async function connect(spec: NotebookRuntimeSpec): Promise<Opened> {
  const base = `/jupyter/${spec.notebookId}/`;
  const ticket = testApp.services.notebooks.sessions.issueTicket({ notebookId: spec.notebookId, userId: testApp.admin.id });
  const home = notebookOrigin(origin, spec.notebookId);
  const cookie = await openedCookie(origin, { url: `${home}${base}_open`, ticket });
  const started = await fetch(`${home}${base}api/kernels`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: '{}' });
  expect(started.status).toBe(201);
  const kernelId = ((await started.json()) as { id: string }).id;
  const kernel = await KernelConnection.open(`${home.replace('http', 'ws')}${base}api/kernels/${kernelId}/channels`, { cookie });
  return { spec, base, cookie, kernelId, kernel };
}

async function run(notebook: Opened, code: string): Promise<Record<string, unknown>> {
  const cell = await notebook.kernel.execute(code, 30_000);
  expect(cell.error, cell.stdout).toBeUndefined();
  return JSON.parse(cell.stdout) as Record<string, unknown>;
}

function proxied(notebook: Opened, apiPath: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${notebookOrigin(origin, notebook.spec.notebookId)}${notebook.base}${apiPath}`, { ...init, headers: { cookie: notebook.cookie, ...(init.headers as Record<string, string>) } });
}

/** A raw WebSocket handshake (no client library normalises the path): the status line's code. */
function rawUpgrade(requestPath: string, cookie: string, notebookId: string): Promise<number> {
  const { port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      socket.write(
        `GET ${requestPath} HTTP/1.1\r\nHost: ${notebookId}.notebooks.localhost:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
          `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nCookie: ${cookie}\r\n\r\n`,
      );
    });
    let head = '';
    socket.on('data', (data) => {
      head += data.toString('latin1');
      const line = head.split('\r\n')[0];
      if (line && head.includes('\r\n')) {
        socket.destroy();
        resolve(Number(line.split(' ')[1]));
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(head.split(' ')[1] ?? 0)));
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'hdp-isolation-test-'));
  // A root-only Unix socket of the host, standing for the warehouse's control socket or a container daemon's.
  canaryDir = mkdtempSync(path.join(os.tmpdir(), 'hdp-canary-'));
  canaryPath = path.join(canaryDir, 'root.sock');
  canary = net.createServer((socket) => {
    socket.once('data', (data) => canaryHits.push(data.toString('latin1').split('\r\n')[0] ?? ''));
    socket.end('HTTP/1.1 418 canary\r\nContent-Length: 0\r\n\r\n');
  });
  await new Promise<void>((resolve) => canary.listen(canaryPath, resolve));
  chmodSync(canaryPath, 0o600);

  resolveLocalhostSubdomains();
  testApp = await startTestApp({ DATA_DIR: dataDir, NOTEBOOK_HOME_QUOTA_MB: String(QUOTA_MB) });
  await testApp.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(testApp.app.server.address() as { port: number }).port}`;
  driver = testApp.services.notebooks.driver as LocalNotebookDriver;
  const [workbenchA, workbenchB] = [await workbench('Isolation A'), await workbench('Isolation B')];
  a = await openNotebook('1a000000-0000-4000-8000-00000000000a', workbenchA);
  b = await openNotebook('1b000000-0000-4000-8000-00000000000b', workbenchB);
}, 120_000);

afterAll(async () => {
  await a?.kernel.close();
  await b?.kernel.close();
  await testApp?.close();
  canary?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(canaryDir, { recursive: true, force: true });
});

describe("the notebook's socket (no path out of the socket directory)", () => {
  it('a symbolic link put in place of Jupyter\'s socket from inside is never followed', async () => {
    const swapped = await run(
      a,
      `import json, os
os.rename('/run/nb/jupyter.sock', '/run/nb/jupyter.sock.real')
os.symlink(${JSON.stringify(canaryPath)}, '/run/nb/jupyter.sock')
print(json.dumps({'link': os.readlink('/run/nb/jupyter.sock')}))`,
    );
    expect(swapped.link).toBe(canaryPath);
    // New connections, HTTP and WebSocket alike, still reach the notebook's own Jupyter.
    const status = await proxied(a, 'api/status');
    expect(status.status).toBe(200);
    const other = await KernelConnection.open(`${notebookOrigin(origin, a.spec.notebookId).replace('http', 'ws')}${a.base}api/kernels/${a.kernelId}/channels`, { cookie: a.cookie });
    expect((await other.execute('6 * 7')).result).toBe('42');
    await other.close();
    expect(canaryHits).toEqual([]);
  });

  it('a socket that is not the one the notebook\'s server made is refused, not connected to', async () => {
    // Should anything ever replace the platform's own link (only root could): the proxy answers
    // as for a stopped notebook rather than connect.
    const link = path.join(os.tmpdir(), 'hdp-notebooks', a.spec.notebookId, 'jupyter.sock');
    renameSync(link, `${link}.kept`);
    symlinkSync(canaryPath, link);
    try {
      expect((await proxied(a, 'api/status')).status).toBe(503);
      expect(driver.socketPath(a.spec.notebookId)).toBeUndefined();
    } finally {
      unlinkSync(link);
      renameSync(`${link}.kept`, link);
    }
    expect((await proxied(a, 'api/status')).status).toBe(200);
    expect(canaryHits).toEqual([]);
  });

  it.each([
    ['dot segments', (base: string) => `${base}../../../../../../..${canaryPath}:/walked?x=1`],
    ['percent-encoded dot segments', (base: string) => `${base}%2e%2e/%2E%2E/%2e%2e/%2e%2e/%2e%2e/%2e%2e/..${canaryPath}:/walked`],
    ['a colon', (base: string) => `${base}api/kernels/${'x'}:/other`],
  ])('a kernel WebSocket path with %s reaches no other socket', async (_name, pathOf) => {
    const status = await rawUpgrade(pathOf(a.base), a.cookie, a.spec.notebookId);
    expect(status).not.toBe(101);
    expect(status).toBeLessThan(500);
    expect(canaryHits).toEqual([]);
    // The API is still there.
    expect((await proxied(a, 'api/status')).status).toBe(200);
  });
});

describe("Jupyter's configuration is the platform's", () => {
  it('a custom.js, a server configuration and a user site module written in the home are not loaded', async () => {
    const written = await run(
      a,
      `import json, os, site
marker = 'HDP-PLANTED-SCRIPT'
results = {}
for target, text in [
    ('/home/nb/.jupyter/custom/custom.js', 'window.planted = "' + marker + '";'),
    ('/home/nb/jupyter_notebook_config.py', 'open("/home/nb/config-ran", "w").write("' + marker + '")'),
    ('/home/nb/.jupyter/jupyter_notebook_config.py', 'open("/home/nb/config-ran", "w").write("' + marker + '")'),
    ('/home/nb/.local/share/jupyter/nbextensions/planted.js', 'window.planted = "' + marker + '";'),
    (os.path.join(site.getusersitepackages(), 'usercustomize.py'), 'import sys; open("/home/nb/usercustomize-ran", "a").write(" ".join(sys.orig_argv) + "\\n")'),
]:
    os.makedirs(os.path.dirname(target), exist_ok=True)
    open(target, 'w').write(text)
def attempt(action):
    try:
        action()
        return 'allowed'
    except OSError as error:
        return type(error).__name__
results['config_dir'] = os.environ['JUPYTER_CONFIG_DIR']
results['write_config'] = attempt(lambda: open(os.environ['JUPYTER_CONFIG_DIR'] + '/custom.js', 'w'))
results['write_data'] = attempt(lambda: open(os.environ['JUPYTER_DATA_DIR'] + '/x', 'w'))
print(json.dumps(results))`,
    );
    expect(written).toMatchObject({ write_config: 'OSError', write_data: 'OSError' });
    expect(String(written.config_dir).startsWith('/home/nb')).toBe(false);

    // Restarted, so that a server that read any of it would have.
    await a.kernel.close();
    await driver.stop(a.spec);
    await driver.start(a.spec);
    a = await connect(a.spec);

    const page = await proxied(a, 'tree');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('custom/custom.css');
    expect(html).not.toContain('HDP-PLANTED-SCRIPT');
    // Jupyter's own (empty) custom.js, which the page's scripts load.
    const custom = await proxied(a, 'custom/custom.js');
    expect(custom.status).toBe(200);
    expect(await custom.text()).not.toContain('HDP-PLANTED-SCRIPT');
    const extension = await proxied(a, 'nbextensions/planted.js');
    expect(extension.status).toBe(404);
    const ran = await run(
      a,
      `import json, os
ran = open('/home/nb/usercustomize-ran').read() if os.path.exists('/home/nb/usercustomize-ran') else ''
print(json.dumps({'config': os.path.exists('/home/nb/config-ran'), 'usercustomize_ran_in': ran}))`,
    );
    expect(ran.config).toBe(false);
    // The server never runs it (a kernel may: that is the notebook's own code).
    expect(String(ran.usercustomize_ran_in)).not.toMatch(/-m notebook|jupyter-notebook/);
  }, 60_000);
});

describe('separate identities', () => {
  it("a key written into the kernel keyring in one notebook cannot be read from another's", async () => {
    const keyring = `import ctypes, errno, json, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def call(*args):
    result = libc.syscall(*args)
    return result if result >= 0 else errno.errorcode[ctypes.get_errno()]
`;
    const wrote = await run(
      a,
      `${keyring}
payload = b'workbench A secret'
added = call(248, b'user', b'hdp-probe', payload, len(payload), ctypes.c_int(-4))
print(json.dumps({'uid': os.getuid(), 'added': added}))`,
    );
    const read = await run(
      b,
      `${keyring}
found = call(250, 10, ctypes.c_int(-4), b'user', b'hdp-probe', 0)
keys = open('/proc/keys').read() if os.path.exists('/proc/keys') else ''
print(json.dumps({'uid': os.getuid(), 'found': found, 'keys': keys}))`,
    );
    expect(wrote.added).toBe('EPERM');
    expect(read.found).toBe('EPERM');
    expect(read.keys).not.toContain('hdp-probe');
    expect(read.uid).not.toBe(wrote.uid);
  });

  it('runs each notebook as its own user, under a seccomp filter that refuses user namespaces', async () => {
    const seen = await run(
      a,
      `import json, os, subprocess
status = dict(line.split(':\\t', 1) for line in open('/proc/self/status').read().splitlines() if ':\\t' in line)
unshare = subprocess.run(['unshare', '-Ur', 'id', '-u'], capture_output=True, text=True)
print(json.dumps({
    'uid': os.getuid(),
    'seccomp': status['Seccomp'].strip(),
    'no_new_privs': status['NoNewPrivs'].strip(),
    'unshare': unshare.returncode,
    'unshare_out': unshare.stdout.strip(),
    'pid1': open('/proc/1/cmdline').read().replace('\\0', ' '),
    'mountinfo': open('/proc/self/mountinfo').read(),
    'home_owner': os.stat('/home/nb').st_uid,
}))`,
    );
    expect(seen).toMatchObject({ seccomp: '2', no_new_privs: '1', home_owner: seen.uid });
    expect(seen.unshare).not.toBe(0);
    expect(seen.unshare_out).not.toBe('0');
    // The sandbox's pid 1 (bubblewrap) shows no host path; the home is a volume of its own.
    expect(String(seen.pid1)).not.toContain(dataDir);
    expect(String(seen.pid1)).not.toContain('hdp-notebooks');
    const homeLine = String(seen.mountinfo)
      .split('\n')
      .find((line) => line.split(' ')[4] === '/home/nb');
    expect(homeLine).toBeDefined();
    expect(homeLine).not.toContain(dataDir);
  });
});

describe("the home's disk quota", () => {
  it('refuses a write past the quota, with the host disk untouched, and says so when a notebook is saved', async () => {
    const filled = await run(
      a,
      `import errno, json, os
written, refused = 0, None
chunk = b'x' * (1 << 20)
try:
    with open('/home/nb/fill.bin', 'wb') as out:
        for _ in range(${QUOTA_MB * 2}):
            out.write(chunk)
            out.flush()
            os.fsync(out.fileno())
            written += 1
except OSError as error:
    refused = errno.errorcode[error.errno]
print(json.dumps({'written_mb': written, 'refused': refused}))`,
    );
    expect(filled.refused).toBe('ENOSPC');
    expect(Number(filled.written_mb)).toBeLessThan(QUOTA_MB);
    const image = path.join(dataDir, 'workbenches', a.spec.workbenchId, 'notebooks', a.spec.notebookId, 'home.img');
    expect(statSync(image).size).toBe(QUOTA_MB * 1024 * 1024);
    expect(statSync(image).blocks * 512).toBeLessThanOrEqual(QUOTA_MB * 1024 * 1024);

    const notebook = { cells: [{ cell_type: 'markdown', metadata: {}, source: 'y'.repeat(1 << 20) }], metadata: {}, nbformat: 4, nbformat_minor: 5 };
    const saved = await proxied(a, 'api/contents/analysis.ipynb', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'notebook', format: 'json', content: notebook }),
    });
    expect(saved.status, await saved.clone().text()).toBe(507);
    expect(((await saved.json()) as { message: string }).message).toMatch(/home is full: it has reached its disk quota/);

    // Freed, it writes again; the other notebook never noticed.
    await run(a, `import json, os\nos.remove('/home/nb/fill.bin')\nprint(json.dumps({}))`);
    const again = await run(b, `import json\nopen('/home/nb/small.txt', 'w').write('fine')\nprint(json.dumps({'ok': True}))`);
    expect(again.ok).toBe(true);
  });

  it('the home is unmounted when the notebook stops, and nothing of it is left on the host when deleted', async () => {
    await b.kernel.close();
    await driver.stop(b.spec);
    const root = path.join(dataDir, 'workbenches', b.spec.workbenchId, 'notebooks', b.spec.notebookId);
    expect(existsSync(path.join(root, 'home', 'small.txt'))).toBe(false);
    await driver.start(b.spec);
    b = await connect(b.spec);
    // Its model without the body: the proxy hands no file's bytes to the browser.
    const kept = await proxied(b, 'api/contents/small.txt?content=0');
    expect(kept.status, (await run(b, 'import json, os\nprint(json.dumps(os.listdir("/home/nb")))')) as unknown as string).toBe(200);
    await b.kernel.close();
    await driver.delete(b.spec);
    expect(existsSync(root)).toBe(false);
  });
});
