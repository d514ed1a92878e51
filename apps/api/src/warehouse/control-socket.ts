import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AppServices } from '../app-services';
import { ImportError } from './omop-importer';
import type { LoadReport } from './warehouse-engine';
import { loadWarehouse, type LoadRequest } from './warehouse-loader';

/**
 * The operator's channel into a running API: a Unix socket in DATA_DIR (mode 0600), so only who
 * may touch DATA_DIR may use it — the same trust as the data-directory lock. `hdp import` and
 * `hdp generate` send their load here while the server runs, because the warehouse has one writer:
 * the server loads into a staging schema and keeps answering queries until the swap.
 */
export const controlSocketPath = (dataDir: string) => path.join(dataDir, 'control.sock');

const CLI_ACTOR = 'hdp command line (through the running API)';

/** Starts the control socket; returns a function that closes it. */
export async function startControlSocket(services: AppServices, dataDir: string): Promise<() => Promise<void>> {
  const socketPath = controlSocketPath(dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.rmSync(socketPath, { force: true });
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        let status = 200;
        let body: unknown;
        try {
          if (request.method !== 'POST' || request.url !== '/warehouse/load') {
            status = 404;
            body = { detail: 'Unknown control command.' };
          } else {
            const load = JSON.parse(Buffer.concat(chunks).toString('utf8')) as LoadRequest;
            body = { report: await loadWarehouse(services, load, { actorEmail: CLI_ACTOR }) };
          }
        } catch (error) {
          status = 422;
          body = { detail: (error as Error).message };
        }
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      })();
    });
  });
  // A load of a million persons takes a while: no request time limit on this channel.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socketPath, resolve));
  fs.chmodSync(socketPath, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      fs.rmSync(socketPath, { force: true });
    });
}

/** Sends a load to a running API; undefined when no API answers on the socket. */
export async function loadThroughRunningApi(dataDir: string, load: LoadRequest): Promise<LoadReport | undefined> {
  const socketPath = controlSocketPath(dataDir);
  if (!fs.existsSync(socketPath)) return undefined;
  return new Promise((resolve, reject) => {
    const request = http.request({ socketPath, path: '/warehouse/load', method: 'POST', headers: { 'content-type': 'application/json' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
        if (response.statusCode === 200) resolve(body.report as LoadReport);
        else reject(new ImportError(body.detail ?? `The API answered ${response.statusCode}.`));
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      // A socket file left by a server that is gone: nobody is listening.
      if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') resolve(undefined);
      else reject(error);
    });
    request.end(JSON.stringify(load));
  });
}
