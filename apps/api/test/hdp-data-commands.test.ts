import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DuckDbWarehouse } from '../src/warehouse/duckdb-warehouse';
import { sampleDataset } from './support/warehouse-fixtures';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hdp-cli-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Runs `hdp` as `npm run hdp` does (in apps/api, INIT_CWD the operator's directory), on the test's data directory. */
function hdp(args: string[], operatorDir = apiDir) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(apiDir, 'src/cli/hdp.ts'), ...args], {
    cwd: apiDir,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', PASSWORD_HASH_COST: '10', INIT_CWD: operatorDir },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('hdp import and generate (no server running)', () => {
  it('generates, imports a directory given relative to where the command runs, and refuses bad input', async () => {
    const generated = hdp(['generate', '--persons', '200', '--seed', '4']);
    expect(generated.stderr).toBe('');
    expect(generated.stdout).toMatch(/^Loaded synthetic: 200 persons, seed 4 in [\d.]+ s: person 200, /);

    const sample = sampleDataset('synthea27nj-omop-5.4');
    const imported = hdp(['import', 'omop', path.basename(sample)], path.dirname(sample));
    expect(imported.status).toBe(0);
    expect(imported.stdout).toContain('person 28,');

    const missing = hdp(['import', 'omop', '/no/such/dir']);
    expect(missing.status).toBe(1);
    expect(missing.stderr.trim()).toBe('/no/such/dir is not a directory.');
    expect(hdp(['generate', '--persons', 'many']).stderr).toContain('--persons must be a whole number of at least 1');

    const warehouse = await DuckDbWarehouse.open(path.join(dataDir, 'warehouse.duckdb'));
    expect(warehouse.state?.source).toBe(`OMOP directory ${sample}`);
    await warehouse.close();
  }, 60_000);
});
