/**
 * The tracker defence's combination check (apps/api/src/warehouse/ledger-combinations.ts) in
 * process, against ledgers of growing size: how long one new answer takes to be compared with every
 * two kept answers. Kept answers are random sets of 20 to 200,000 persons (counts spread as an
 * explorer's answers are: many small, a few large); the new answer is one of them less a few
 * thousand persons, so it meets many count-matching pairs, as a worst case.
 * It also times what an API process does first on a dataset: turning every kept answer's sketch
 * into what the check holds (`keptCounts`, `withKept`), and reports the memory that takes.
 * Usage: npm run bench:ledger-combinations [-- --checks 200 --sizes 100,1000,5000,20000,100000,200000]
 */
import { candidateCombinations, keptCounts, nearCombination, withKept, type KeptSketch } from '../../apps/api/src/warehouse/ledger-combinations';
import { KEY_RANGE } from '../../apps/api/src/warehouse/perturbation';
import { emptySketch, addToSketch, cellOf, checkOf, SKETCH_PARTS, type PersonSetSketch } from '../../apps/api/src/warehouse/person-set-sketch';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const checks = arg('checks', 200);
const sizesArg = process.argv.indexOf('--sizes');
const sizes = sizesArg > 0 ? process.argv[sizesArg + 1]!.split(',').map(Number) : [100, 1000, 5000, 20_000, 100_000, 200_000];
const out = (line: string) => process.stdout.write(`${line}\n`);

/** Persons drawn one by one per sketch; 200,000 sketches of up to 5,000 would take minutes to draw. */
const REAL_PERSONS = 1000;

/** A sketch of `n` random persons, built cell by cell (as the warehouse sums them), fast for large n. */
function randomSketch(n: number, random: () => number): PersonSetSketch {
  const sketch = emptySketch();
  for (let i = 0; i < Math.min(n, REAL_PERSONS); i++) {
    const key = Math.floor(random() * KEY_RANGE);
    for (let part = 0; part < SKETCH_PARTS; part++) addToSketch(sketch, part, cellOf(key, part), 1, key, checkOf(key));
  }
  // Beyond that only the counts per cell grow: scale them (such sets differ by hundreds in every cell either way).
  if (n > REAL_PERSONS) for (let i = 0; i < sketch.counts.length; i++) sketch.counts[i] = Math.round((sketch.counts[i]! * n) / REAL_PERSONS);
  return sketch;
}

function seeded(seed: number) {
  let s = seed;
  return () => ((s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

const collect = () => (globalThis as { gc?: () => void }).gc?.();
const heap = () => {
  collect();
  return process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
};

for (const size of sizes) {
  const random = seeded(size);
  const counts = Array.from({ length: size }, () => Math.round(20 * Math.exp(random() * Math.log(10_000))));
  // Whole sketches are drawn again from their seed when a pair is peeled: 200,000 of them held would be gigabytes.
  // (once each: those of pairs that pass the bounds are kept, as an answer's would be read once).
  const drawn = new Map<number, PersonSetSketch>();
  const draw = (id: number) => randomSketch(counts[id]!, seeded(size * 1_000_003 + id));
  const sketchOf = (id: number) => drawn.get(id) ?? drawn.set(id, draw(id)).get(id)!;
  // What a process does on its first answer for a dataset: every kept answer's first part, merged by count
  // (the sketches drawn here stand for those read from the database, and are not timed).
  const heapBefore = heap();
  let loadMs = 0;
  const firstParts = counts.map((personCount, id) => {
    const sketch = draw(id);
    const t0 = performance.now();
    const first = keptCounts(id, personCount, sketch);
    loadMs += performance.now() - t0;
    return first;
  });
  const t0 = performance.now();
  const held = withKept([], firstParts);
  loadMs += performance.now() - t0;
  const heldBytes = heap() - heapBefore;
  // The index the look-ups use is built at the first check that needs it: one such check, untimed, then the memory with it.
  const small = randomSketch(21, random);
  for (const _pair of candidateCombinations({ personCount: 21, sketch: small }, held, 20)) void _pair;
  const indexedBytes = heap() - heapBefore;
  const kept: KeptSketch[] = held.map((k) => Object.defineProperty({ ...k }, 'sketch', { get: () => sketchOf(k.id) }) as KeptSketch);
  const times: number[] = [];
  // CPU time too: on a shared machine the elapsed time mostly measures the other processes.
  const cpuTimes: number[] = [];
  let near = 0;
  for (let c = 0; c < checks; c++) {
    const personCount = kept[Math.floor(random() * kept.length)]!.personCount;
    const fresh = { personCount, sketch: randomSketch(personCount, random) };
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    if (nearCombination(fresh, kept, 20)) near++;
    const cpu = process.cpuUsage(cpu0);
    times.push(performance.now() - t0);
    cpuTimes.push((cpu.user + cpu.system) / 1000);
  }
  out(
    `${size.toLocaleString('en')} kept answers: one new answer compared with every two in p50 ${quantile(times, 0.5).toFixed(2)} ms, p95 ${quantile(times, 0.95).toFixed(2)} ms ` +
      `(CPU p50 ${quantile(cpuTimes, 0.5).toFixed(2)} ms, p95 ${quantile(cpuTimes, 0.95).toFixed(2)} ms; ${near} of ${checks} found near); ` +
      `held in memory: ${(heldBytes / size).toFixed(0)} bytes an answer, ${(heldBytes / 2 ** 20).toFixed(0)} MiB, built in ${loadMs.toFixed(0)} ms; with the index: ${(indexedBytes / size).toFixed(0)} bytes an answer`,
  );
  firstParts.length = 0;
}
