import { percentile } from './servers';

/** Sequential GETs of each scenario; prints p50 and p95 per scenario and returns the worst p95. */
export async function measureScenarios(baseUrl: string, token: string, scenarios: [string, string][], requests: number): Promise<number> {
  const p95s: number[] = [];
  for (const [name, path] of scenarios) {
    const times: number[] = [];
    for (let i = 0; i < requests + 10; i += 1) {
      const t0 = performance.now();
      const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
      const body = await response.text();
      if (!response.ok) throw new Error(`${path}: ${response.status} ${body}`);
      if (i >= 10) times.push(performance.now() - t0); // the first ten warm up
    }
    const p95 = percentile(times, 95);
    p95s.push(p95);
    process.stdout.write(`  ${name.padEnd(44)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms   p95 ${p95.toFixed(1).padStart(6)} ms\n`);
  }
  return Math.max(...p95s);
}
