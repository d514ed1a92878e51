import http from 'node:http';
import type { NotebookActivity, NotebookUpstream } from './runtime-driver';

export interface JupyterResponse {
  status: number;
  body: string;
}

/**
 * One request to a notebook's Jupyter server over its Unix socket. `Host: localhost` because
 * Jupyter refuses other hosts (DNS-rebinding protection); the token authenticates the platform.
 */
export function jupyterRequest(
  upstream: NotebookUpstream,
  method: string,
  apiPath: string,
  options: { timeoutMs?: number; body?: string } = {},
): Promise<JupyterResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        socketPath: upstream.socketPath,
        method,
        path: `${upstream.basePath}${apiPath}`,
        headers: {
          host: 'localhost',
          authorization: `token ${upstream.token}`,
          ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        timeout: options.timeoutMs ?? 2000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`Jupyter did not answer ${method} ${apiPath} in time`)));
    request.on('error', reject);
    request.end(options.body);
  });
}

/** Jupyter's `/api/status`: when it last saw activity and how many kernel connections are open. */
export async function jupyterActivity(upstream: NotebookUpstream): Promise<NotebookActivity | undefined> {
  const response = await jupyterRequest(upstream, 'GET', 'api/status').catch(() => undefined);
  if (!response || response.status !== 200) return undefined;
  const status = JSON.parse(response.body) as { last_activity: string; connections: number; kernels: number };
  return { lastActivity: new Date(status.last_activity), connections: status.connections, kernels: status.kernels };
}
