/**
 * The benchmark's HTTP client, in its own process so that it does not share the proxy's event
 * loop: in turn fetches a file from the Jupyter server directly (its Unix socket), through the
 * proxy and through a bare relay, and prints the times as JSON. Arguments: one JSON object (see FetchPlan).
 */
import http from 'node:http';

interface FetchPlan {
  socketPath: string;
  token: string;
  proxyPort: number;
  /** A bare Node relay to the same socket (no checks, no rewriting): the floor of any Node proxy. */
  relayPort: number;
  /** The same proxy without egress counting. */
  uncountedPort: number;
  cookie: string;
  /** The notebook's own host, which the proxy routes by. */
  host: string;
  path: string;
  size: number;
  fetches: number;
}

const plan = JSON.parse(process.argv[2]!) as FetchPlan;
const agent = new http.Agent({ keepAlive: true });
const get = (options: http.RequestOptions) =>
  new Promise<number>((resolve, reject) => {
    const t0 = performance.now();
    http
      .get({ ...options, agent }, (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => (bytes += chunk.length));
        response.on('end', () =>
          bytes >= plan.size && response.statusCode === 200 ? resolve(performance.now() - t0) : reject(new Error(`${response.statusCode}, ${bytes} bytes`)),
        );
      })
      .on('error', reject);
  });
const direct: number[] = [];
const proxied: number[] = [];
const relayed: number[] = [];
const uncountedTimes: number[] = [];
for (let i = 0; i < plan.fetches + 20; i += 1) {
  const d = await get({ socketPath: plan.socketPath, path: plan.path, headers: { host: 'localhost', authorization: `token ${plan.token}` } });
  const p = await get({ host: '127.0.0.1', port: plan.proxyPort, path: plan.path, headers: { host: plan.host, cookie: plan.cookie } });
  const r = await get({ host: '127.0.0.1', port: plan.relayPort, path: plan.path });
  const u = await get({ host: '127.0.0.1', port: plan.uncountedPort, path: plan.path, headers: { host: plan.host, cookie: plan.cookie } });
  // The first twenty warm every path up.
  if (i >= 20) {
    direct.push(d);
    proxied.push(p);
    relayed.push(r);
    uncountedTimes.push(u);
  }
}
agent.destroy();
process.stdout.write(JSON.stringify({ direct, proxied, relayed, uncountedTimes }));
