/**
 * Safe outputs: the automatic checks of a release request's file, from the add call to the label
 * on the file (the job of the one queue, read back through GET), over the API in this process
 * (Fastify inject on the embedded PGlite).
 * - checks: a 5,000-row, 20-column CSV (2 label columns, 18 count columns), against a workbench
 *   whose released data holds a person table of 100,000 persons (person-id, identical and subset checks);
 * - differencing: a table with the same labels as 100 tables already released from the workbench.
 * Usage: npm run bench:outputs [-- --runs 5 --released 100]
 * Goals: checks <= 500 ms added -> labelled; differencing against 100 released tables <= 2 s.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { ReleaseRequest } from '@hdp/contract';
import { buildApp } from '../../apps/api/src/app';
import { loadConfig } from '../../apps/api/src/config';
import { openServices } from '../../apps/api/src/services';
import { createUser, ensureFirstAdmin } from '../../apps/api/src/users/admin-creator';
import { notebookRepository } from '../../apps/api/src/notebooks/notebook-repository';
import { releaseRepository } from '../../apps/api/src/outputs/release-repository';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const runs = arg('runs', 5);
const releasedCount = arg('released', 100);
const out = (line: string) => process.stdout.write(`${line}\n`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A 5,000 × 20 table: region and age band as labels, 18 count columns, every count safe. */
function bigTable(seed: number): string {
  const header = ['region', 'age_band', ...Array.from({ length: 18 }, (_, i) => `count_${i + 1}`)];
  const lines = [header.join(',')];
  for (let r = 0; r < 5000; r++) {
    const counts = Array.from({ length: 18 }, (_, c) => 20 + ((r * 31 + c * 17 + seed) % 900));
    lines.push([`region-${r % 50}`, `band-${Math.floor(r / 50)}`, ...counts].join(','));
  }
  return `${lines.join('\n')}\n`;
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-bench-outputs-'));
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, ADMIN_PASSWORD: 'bench-admin-password', PASSWORD_HASH_COST: '10', DEMO_PERSONS: '0' });
  const opened = await openServices(config, { inMemory: true });
  const { services } = opened;
  const app = await buildApp(services);
  try {
    await ensureFirstAdmin(services.db, config.admin);
    const { user } = await createUser(services.db, { email: 'rita@example.org', roles: ['RESEARCHER'], password: 'a-long-bench-password' }, 'bench');
    const token = (await app.inject({ method: 'POST', url: '/api/v1/auth/token/', payload: { email: 'rita@example.org', password: 'a-long-bench-password' } })).json().id_token as string;
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const response = await app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${token}` }, ...(payload && { payload }) });
      if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
      return response.json();
    };
    const workbench = await call('POST', '/workbenches/', { name: 'Bench', purpose: 'A benchmark workbench: its purpose is long enough for the wizard, fifty characters or more.' });
    const workbenchId = workbench.id as string;
    // The released data the checks compare with: a person table of 100,000 persons.
    const personDir = path.join(config.workbenches.dir, workbenchId, 'released', 'cohorts', 'bench-v1');
    fs.mkdirSync(personDir, { recursive: true });
    const persons = ['person_id,gender_concept_id,year_of_birth', ...Array.from({ length: 100_000 }, (_, i) => `${i + 1},${8507 + (i % 2)},${1930 + (i % 70)}`)];
    fs.writeFileSync(path.join(personDir, 'person.csv.gz'), gzipSync(`${persons.join('\n')}\n`));
    const notebook = await notebookRepository.insert(services.db, {
      workbenchId, ownerId: user.id, name: 'Bench', environment: 'python3-datascience', zone: 'australia-southeast1-a', machineType: 'n1-standard-4', status: 'STOPPED',
    });
    const home = path.join(config.workbenches.dir, workbenchId, 'notebooks', notebook.id, 'home');
    fs.mkdirSync(home, { recursive: true });

    const newRequest = async (title: string) => {
      const request = (await call('POST', `/workbenches/${workbenchId}/release-requests/`, { title })) as ReleaseRequest;
      const grouped = (await call('POST', `/release-requests/${request.id}/groups/`, { name: 'Tables', context: 'Benchmark tables.', controls: 'Counts of 20 or more.' })) as ReleaseRequest;
      return { id: request.id, groupId: grouped.groups[0]!.id };
    };
    /** ms from the add call to the file's label, read back through GET. */
    const addedToLabelled = async (requestId: string, groupId: string, file: string): Promise<{ ms: number; request: ReleaseRequest }> => {
      const t0 = performance.now();
      await call('POST', `/release-requests/${requestId}/files/`, { notebook_id: notebook.id, path: file, group_id: groupId });
      for (;;) {
        const request = (await call('GET', `/release-requests/${requestId}/`)) as ReleaseRequest;
        const added = request.groups.flatMap((g) => g.files).find((f) => f.source.path === file)!;
        if (added.checks.state !== 'PENDING') return { ms: performance.now() - t0, request };
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };

    out(`checks: a 5,000-row, 20-column CSV (${runs} runs, each a new version), 100,000 released persons`);
    const { id, groupId } = await newRequest('Big table');
    const times: number[] = [];
    for (let run = 0; run < runs; run++) {
      fs.writeFileSync(path.join(home, 'big.csv'), bigTable(run));
      const { ms, request } = await addedToLabelled(id, groupId, 'big.csv');
      const file = request.groups[0]!.files[0]!;
      if (file.checks.verdict !== 'PASS') throw new Error(`expected PASS, got ${file.checks.verdict}: ${JSON.stringify(file.checks.findings).slice(0, 300)}`);
      times.push(ms);
      out(`  run ${run + 1}: ${ms.toFixed(0)} ms (${file.checks.verdict})`);
    }
    const checksMedian = median(times);
    out(`  median ${checksMedian.toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms (goal <= 500 ms)`);

    out(`differencing: a 50-row table against ${releasedCount} tables already released from the workbench`);
    // The released tables are seeded as released requests: the flow that releases them is the HTTP suite's subject.
    const table = (shift: number) => `region,age_band,patients\n${Array.from({ length: 50 }, (_, r) => `region-${r % 5},band-${r},${100 + r * 3 + shift}`).join('\n')}\n`;
    for (let i = 0; i < releasedCount; i++) {
      const request = await releaseRepository.insertRequest(services.db, { workbenchId, authorId: user.id, title: `Released ${i}`, requiredReviews: 2, state: 'RELEASED', round: 1, releasedAt: new Date() });
      const group = await releaseRepository.insertGroup(services.db, { requestId: request.id, name: 'Tables', context: 'Benchmark tables.', controls: 'Counts of 20 or more.' });
      const key = `${workbenchId}/outputs/${request.id}/files/released-${i}.csv`;
      fs.mkdirSync(path.dirname(services.workbenchStore.localPath(key)), { recursive: true });
      const text = table(i * 40);
      fs.writeFileSync(services.workbenchStore.localPath(key), text);
      await releaseRepository.insertFile(services.db, {
        requestId: request.id, groupId: group.id, notebookId: notebook.id, sourcePath: `released-${i}.csv`, name: `released-${i}.csv`, kind: 'OUTPUT',
        contentType: 'text/csv', sizeBytes: text.length, sha256: `seed-${i}`, storageKey: key, checkState: 'DONE', checkVerdict: 'PASS',
      });
    }
    const diffTimes: number[] = [];
    let compared = 0;
    for (let run = 0; run < runs; run++) {
      // 3 more than the first released table in every row: each cell differs by 3, under the minimum.
      fs.writeFileSync(path.join(home, `diff-${run}.csv`), table(3));
      const { id: requestId, groupId: group } = await newRequest(`Differencing ${run}`);
      const { ms, request } = await addedToLabelled(requestId, group, `diff-${run}.csv`);
      const file = request.groups[0]!.files[0]!;
      if (!file.checks.findings.some((f) => f.check === 'differencing')) throw new Error('the differencing check found nothing');
      compared = Number(file.checks.parameters.released_tables);
      diffTimes.push(ms);
      out(`  run ${run + 1}: ${ms.toFixed(0)} ms (${file.checks.verdict}, ${compared} released tables with the same labels)`);
    }
    const diffMedian = median(diffTimes);
    out(`  median ${diffMedian.toFixed(0)} ms, max ${Math.max(...diffTimes).toFixed(0)} ms (goal <= 2000 ms)`);
    if (checksMedian > 500 || diffMedian > 2000) process.exitCode = 1;
  } finally {
    await app.close();
    await opened.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
