import http from 'node:http';
import path from 'node:path';

/** The dataset of the suite's first start (DEMO_PERSONS, DEMO_SEED). */
export const FIRST_DATASET = { kind: 'synthetic', persons: 10_000, seed: 20_240_501 } as const;

/**
 * Runs a load through the running API's control socket (what `hdp generate` does), as an operator
 * reloading the warehouse. Even the same dataset is a new load: cohort versions taken before can no
 * longer be released.
 */
export function reloadWarehouse(dataset: { kind: 'synthetic'; persons: number; seed: number } = FIRST_DATASET): Promise<void> {
  const socketPath = path.join(process.env.E2E_DATA_DIR!, 'control.sock');
  const body = JSON.stringify(dataset);
  return new Promise((resolve, reject) => {
    const request = http.request({ socketPath, path: '/warehouse/load', method: 'POST', headers: { 'content-type': 'application/json' } }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`reload: ${response.statusCode} ${text}`))));
    });
    request.on('error', reject);
    request.end(body);
  });
}
