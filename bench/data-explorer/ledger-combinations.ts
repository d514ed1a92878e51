/**
 * The tracker defence's combination check (apps/api/src/warehouse/ledger-combinations.ts) in
 * process, against ledgers of growing size: how long one new answer takes to be compared with every
 * two kept answers. Kept answers are random sets of 20 to 200,000 persons (counts spread as an
 * explorer's answers are: many small, a few large); the new answer is one of them less a few
 * thousand persons, so it meets many count-matching pairs, as a worst case.
 * Usage: npm run bench:ledger-combinations [-- --checks 200]
 */
import { keptCounts, nearCombination, type KeptSketch } from '../../apps/api/src/warehouse/ledger-combinations';
import { KEY_RANGE } from '../../apps/api/src/warehouse/perturbation';
import { emptySketch, addToSketch, cellOf, checkOf, SKETCH_PARTS, type PersonSetSketch } from '../../apps/api/src/warehouse/person-set-sketch';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const checks = arg('checks', 200);
const out = (line: string) => process.stdout.write(`${line}\n`);

/** A sketch of `n` random persons, built cell by cell (as the warehouse sums them), fast for large n. */
function randomSketch(n: number, random: () => number): PersonSetSketch {
  const sketch = emptySketch();
  for (let i = 0; i < Math.min(n, 5000); i++) {
    const key = Math.floor(random() * KEY_RANGE);
    for (let part = 0; part < SKETCH_PARTS; part++) addToSketch(sketch, part, cellOf(key, part), 1, key, checkOf(key));
  }
  // Beyond 5,000 persons only the counts per cell grow: scale them (the comparison's cost does not depend on the values).
  if (n > 5000) for (let i = 0; i < sketch.counts.length; i++) sketch.counts[i] = Math.round((sketch.counts[i]! * n) / 5000);
  return sketch;
}

function seeded(seed: number) {
  let s = seed;
  return () => ((s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

for (const size of [100, 1000, 5000, 20_000]) {
  const random = seeded(size);
  const kept: KeptSketch[] = Array.from({ length: size }, (_k, id) => {
    const personCount = Math.round(20 * Math.exp(random() * Math.log(10_000)));
    const sketch = randomSketch(personCount, random);
    return { ...keptCounts(id, personCount, sketch), sketch };
  }).sort((a, b) => a.personCount - b.personCount || a.id - b.id);
  const times: number[] = [];
  let near = 0;
  for (let c = 0; c < checks; c++) {
    const personCount = kept[Math.floor(random() * kept.length)]!.personCount;
    const fresh = { personCount, sketch: randomSketch(personCount, random) };
    const t0 = performance.now();
    if (nearCombination(fresh, kept, 20)) near++;
    times.push(performance.now() - t0);
  }
  out(`${size.toLocaleString('en')} kept answers: one new answer compared with every two in p50 ${quantile(times, 0.5).toFixed(2)} ms, p95 ${quantile(times, 0.95).toFixed(2)} ms (${near} of ${checks} found near)`);
}
