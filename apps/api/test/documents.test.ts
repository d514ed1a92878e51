import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '@hdp/contract';
import { startTestApp, ADMIN_EMAIL, type TestApp } from './support/test-app';
import S3rver from 's3rver';
import { EICAR, multipartFile, TINY_PNG } from './support/multipart';

let t: TestApp;
let dataDir: string;
let owner: Awaited<ReturnType<TestApp['userWithRoles']>>;
let stranger: Awaited<ReturnType<TestApp['userWithRoles']>>;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-docs-'));
  t = await startTestApp({ DATA_DIR: dataDir, CLAMAV: 'none' });
  owner = await t.userWithRoles(['RESEARCHER'], 'owner@example.org');
  stranger = await t.userWithRoles(['RESEARCHER'], 'stranger@example.org');
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const upload = (app: TestApp, token: string, name: string, type: string, content: Buffer) =>
  app.request({ method: 'POST', url: '/api/v1/documents/', token, ...multipartFile('file', name, type, content) });
/** Files in the document store, temporary ones included. */
const storedFiles = (dir = dataDir) => {
  const root = path.join(dir, 'documents');
  return [...fs.readdirSync(root), ...fs.readdirSync(path.join(root, '.incoming'))].filter((n) => n !== '.incoming');
};

describe('documents', () => {
  it('uploads, lists, downloads the same bytes with safe headers, and deletes', async () => {
    const name = 'Résumé of cohort (A).png';
    const uploaded = await upload(t, owner.token, name, 'image/png', TINY_PNG);
    expect(uploaded.statusCode).toBe(201);
    const document = uploaded.json();
    expect(document).toMatchObject({
      name,
      content_type: 'image/png',
      size_bytes: TINY_PNG.length,
      sha256: createHash('sha256').update(TINY_PNG).digest('hex'),
      scan_status: 'NOT_SCANNED',
      owner: { email: 'owner@example.org' },
    });
    // The stored name is generated, never the user's.
    expect(storedFiles()).toHaveLength(1);
    expect(storedFiles()[0]).toMatch(/^[0-9a-f-]{36}$/);

    const list = await t.request({ method: 'GET', url: '/api/v1/documents/', token: owner.token });
    expect(list.json()).toMatchObject({ total: 1, documents: [{ id: document.id }] });
    expect((await t.request({ method: 'GET', url: '/api/v1/documents/', token: stranger.token })).json().total).toBe(0);

    const download = await t.request({ method: 'GET', url: `/api/v1/documents/${document.id}/`, token: owner.token });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(TINY_PNG)).toBe(true);
    expect(download.headers['cache-control']).toBe('no-store');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="R_sum_ of cohort (A).png"; filename*=UTF-8''R%C3%A9sum%C3%A9%20of%20cohort%20%28A%29.png`,
    );

    const removed = await t.request({ method: 'DELETE', url: `/api/v1/documents/${document.id}/`, token: owner.token });
    expect(removed.statusCode).toBe(204);
    expect(storedFiles()).toEqual([]);
    expect((await t.request({ method: 'GET', url: `/api/v1/documents/${document.id}/`, token: owner.token })).statusCode).toBe(404);
  });

  it('refuses a file over the cap with 413 naming the limit, keeping nothing', async () => {
    const response = await upload(t, owner.token, 'big.txt', 'text/plain', Buffer.alloc(LIMITS.uploadMaxBytes + 1, 'a'));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ detail: 'The file is larger than the limit of 20,000,000 bytes.' });
    expect(storedFiles()).toEqual([]);
    expect((await t.request({ method: 'GET', url: '/api/v1/documents/', token: owner.token })).json().total).toBe(0);
  });

  it('accepts a file of exactly the cap', async () => {
    const response = await upload(t, owner.token, 'exact.txt', 'text/plain', Buffer.alloc(LIMITS.uploadMaxBytes, 'a'));
    expect(response.statusCode).toBe(201);
    expect(response.json().size_bytes).toBe(LIMITS.uploadMaxBytes);
    await t.request({ method: 'DELETE', url: `/api/v1/documents/${response.json().id}/`, token: owner.token });
  });

  it('checks the content type against the magic bytes', async () => {
    const pdf = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n', 'latin1');
    const lying = await upload(t, owner.token, 'picture.png', 'image/png', pdf);
    expect(lying.statusCode).toBe(415);
    expect(lying.json().detail).toBe("The file's content is PDF, not the declared PNG image.");
    const gif = Buffer.from('R0lGODlhAQABAAAAACw=', 'base64');
    expect((await upload(t, owner.token, 'a.gif', 'image/gif', gif)).json().detail).toMatch(/^Files of type GIF image are not accepted\. Accepted types: PDF, PNG image, JPEG image, plain text, CSV table, JSON, Word document \(\.docx\), Excel workbook \(\.xlsx\), ZIP archive\.$/);
    const binaryAsText = await upload(t, owner.token, 'a.txt', 'text/plain', Buffer.from([0, 1, 2, 3, 0, 255]));
    expect(binaryAsText.statusCode).toBe(415);
    const pdfOk = await upload(t, owner.token, 'report.pdf', 'application/octet-stream', pdf);
    expect(pdfOk.json().content_type).toBe('application/pdf');
    expect(storedFiles()).toHaveLength(1);
  });

  it("tells others a document does not exist, and audits the attempt; an ADMIN may read it", async () => {
    const document = (await upload(t, owner.token, 'private.csv', 'text/csv', Buffer.from('a,b\n1,2\n'))).json();
    const denied = await t.request({ method: 'GET', url: `/api/v1/documents/${document.id}/`, token: stranger.token });
    expect(denied.statusCode).toBe(404);
    expect(denied.json().detail).toBe('Document not found.');
    expect((await t.request({ method: 'DELETE', url: `/api/v1/documents/${document.id}/`, token: stranger.token })).statusCode).toBe(404);
    const admin = (await t.signIn(ADMIN_EMAIL)).id_token;
    expect((await t.request({ method: 'GET', url: `/api/v1/documents/${document.id}/`, token: admin })).statusCode).toBe(200);
    const log = await t.request({ method: 'GET', url: '/api/v1/logs/?event_type=ACCESS_DENIED&event_type=DOCUMENT_DOWNLOADED&event_type=DOCUMENT_UPLOADED', token: admin });
    const events = log.json().entries.map((e: { event_type: string; outcome: string; resource: { id: string } }) => [e.event_type, e.outcome, e.resource.id]);
    expect(events).toContainEqual(['ACCESS_DENIED', 'DENIED', document.id]);
    expect(events).toContainEqual(['DOCUMENT_DOWNLOADED', 'SUCCESS', document.id]);
    expect(events).toContainEqual(['DOCUMENT_UPLOADED', 'SUCCESS', document.id]);
    expect(events.filter((e: string[]) => e[0] === 'DOCUMENT_UPLOADED' && e[1] === 'FAILURE').length).toBeGreaterThan(0);
  });

  it('answers 400 without a file field', async () => {
    const response = await t.request({ method: 'POST', url: '/api/v1/documents/', token: owner.token, ...multipartFile('other', 'a.txt', 'text/plain', Buffer.from('x')) });
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toBe('file: a multipart field named "file" is required');
  });
});

describe('malware scanning with ClamAV', () => {
  // Needs ClamAV's clamscan (Debian package clamav; .ci/run installs it).
  it('refuses the EICAR test file and marks clean files CLEAN', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-clam-'));
    // A signature database holding only EICAR's, so the test needs no download of the public ones.
    const signatures = path.join(dir, 'eicar.hdb');
    fs.writeFileSync(signatures, `${createHash('md5').update(EICAR).digest('hex')}:${EICAR.length}:Eicar-Test-Signature\n`);
    const app = await startTestApp({ DATA_DIR: dir, CLAMAV: '/usr/bin/clamscan', CLAMAV_DATABASE: signatures });
    try {
      const { token } = await app.userWithRoles(['RESEARCHER']);
      const infected = await upload(app, token, 'eicar.txt', 'text/plain', Buffer.from(EICAR));
      expect(infected.statusCode).toBe(422);
      expect(infected.json().detail).toMatch(/^The file was refused: malware was found \(Eicar-Test-Signature/);
      expect(storedFiles(dir)).toEqual([]);
      const clean = await upload(app, token, 'notes.txt', 'text/plain', Buffer.from('nothing to see'));
      expect(clean.json().scan_status).toBe('CLEAN');
    } finally {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('interrupted uploads', () => {
  it('leave nothing behind after a restart', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-crash-'));
    fs.mkdirSync(path.join(dir, 'documents', '.incoming'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'documents', '.incoming', '0b7f3c39-9d3a-4a59-8f55-5b1e2d1c9a00.partial'), 'half an upload');
    const app = await startTestApp({ DATA_DIR: dir });
    try {
      expect(storedFiles(dir)).toEqual([]);
    } finally {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * S3-compatible storage, tested against s3rver: a FAKE of the third-party object store (no real
 * S3-compatible server can run on the test machines). It checks what the platform sends and reads
 * back, not the store's own guarantees.
 */
describe('documents in S3-compatible object storage', () => {
  it('stores, serves and deletes objects in the bucket, and keeps nothing of a refused upload', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-s3-'));
    const fakeS3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: path.join(dir, 's3'), configureBuckets: [{ name: 'hdp-docs' }] });
    const { port } = await fakeS3.run();
    const app = await startTestApp({
      DATA_DIR: dir,
      CLAMAV: 'none',
      DOCUMENT_STORAGE: 's3',
      S3_BUCKET: 'hdp-docs',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    });
    const bucketObjects = () => {
      const root = path.join(dir, 's3', 'hdp-docs', 'documents');
      // s3rver keeps each object as `<name>._S3rver_object` (plus metadata files).
      return fs.existsSync(root) ? fs.readdirSync(root).filter((n) => n.endsWith('._S3rver_object')) : [];
    };
    try {
      const { token } = await app.userWithRoles(['RESEARCHER']);
      const uploaded = (await upload(app, token, 'pixel.png', 'image/png', TINY_PNG)).json();
      expect(bucketObjects()).toHaveLength(1);
      expect(bucketObjects()[0]).toMatch(/^[0-9a-f-]{36}\._S3rver_object$/);
      const download = await app.request({ method: 'GET', url: `/api/v1/documents/${uploaded.id}/`, token });
      expect(download.statusCode, download.body).toBe(200);
      expect(download.rawPayload.equals(TINY_PNG)).toBe(true);
      const over = await upload(app, token, 'big.txt', 'text/plain', Buffer.alloc(LIMITS.uploadMaxBytes + 1, 'a'));
      expect(over.statusCode).toBe(413);
      expect(bucketObjects()).toHaveLength(1);
      expect(fs.readdirSync(path.join(dir, 'documents', '.incoming'))).toEqual([]);
      expect((await app.request({ method: 'DELETE', url: `/api/v1/documents/${uploaded.id}/`, token })).statusCode).toBe(204);
      expect(bucketObjects()).toHaveLength(0);
    } finally {
      await app.close();
      await fakeS3.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
