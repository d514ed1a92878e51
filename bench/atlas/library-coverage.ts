/**
 * How much of the OHDSI Phenotype Library imports, and how long the largest definition takes.
 * Reads a local copy of the library (a checkout of OHDSI/PhenotypeLibrary, or its `inst/cohorts`
 * folder): every `<id>.json` goes through the import the API runs (Circe JSON → the model, the
 * compiler's checks, the lint), without a database.
 * Usage: npm run bench:atlas -- <path to PhenotypeLibrary or its inst/cohorts> [--runs 20]
 * Goal: the largest definition imports in ≤ 200 ms (median of the runs).
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { CirceImportError } from '../../apps/api/src/queries/atlas/circe-import';
import { prepareAtlasImport } from '../../apps/api/src/queries/atlas/atlas-definition';

const given = process.argv[2];
if (!given || given.startsWith('--')) {
  process.stderr.write('usage: library-coverage.ts <path to PhenotypeLibrary or its inst/cohorts> [--runs 20]\n');
  process.exit(2);
}
const runsAt = process.argv.indexOf('--runs');
const runs = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 20;
const folder = fs.existsSync(path.join(given, 'inst', 'cohorts')) ? path.join(given, 'inst', 'cohorts') : given;
const files = fs.readdirSync(folder).filter((f) => /^\d+\.json$/.test(f)).sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
const out = (line: string) => process.stdout.write(`${line}\n`);

let imported = 0;
const reasons = new Map<string, string[]>();
const warned = new Map<string, number>();
let largest = { file: '', bytes: 0, text: '' };
let largestImported = { file: '', bytes: 0, text: '' };
for (const file of files) {
  const text = fs.readFileSync(path.join(folder, file), 'utf8');
  if (text.length > largest.bytes) largest = { file, bytes: text.length, text };
  try {
    const { warnings } = prepareAtlasImport(JSON.parse(text));
    imported++;
    if (text.length > largestImported.bytes) largestImported = { file, bytes: text.length, text };
    for (const rule of new Set(warnings.map((w) => w.rule))) warned.set(rule, (warned.get(rule) ?? 0) + 1);
  } catch (error) {
    if (!(error instanceof CirceImportError)) throw error;
    // The construct, without the place: `PrimaryCriteria.CriteriaList[3].DoseEra` → `DoseEra`.
    const construct = `${error.kind}: ${error.path.split('.').at(-1)!.replace(/\[\d+\]$/, '')}: ${error.reason.replace(/\(this one has \d+\)/, '').replace(/\d+/g, 'N')}`;
    reasons.set(construct, [...(reasons.get(construct) ?? []), file.replace('.json', '')]);
  }
}
out(`Phenotype Library at ${folder}: ${files.length} definitions`);
out(`imported: ${imported} (${((100 * imported) / files.length).toFixed(1)} %); refused: ${files.length - imported}`);
out('refusal reasons (definitions, first ids):');
for (const [reason, ids] of [...reasons].sort((a, b) => b[1].length - a[1].length)) out(`  ${String(ids.length).padStart(4)}  ${reason}  [${ids.slice(0, 5).join(', ')}]`);
out('lint warnings among the imported (definitions with at least one):');
for (const [rule, n] of [...warned].sort((a, b) => b[1] - a[1])) out(`  ${String(n).padStart(4)}  ${rule}`);

// Timing: the largest file, and the largest that imports, parse included (as the API receives text).
function time(subject: { file: string; bytes: number; text: string }, label: string): void {
  const times: number[] = [];
  let outcome = 'imported';
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    try {
      prepareAtlasImport(JSON.parse(subject.text));
    } catch (error) {
      outcome = `refused: ${(error as Error).message.slice(0, 120)}`;
    }
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  out(`${label}: ${subject.file}, ${(subject.bytes / 1024).toFixed(0)} KiB, ${outcome}`);
  out(`  import time over ${runs} runs: median ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms (goal ≤ 200 ms)`);
}
time(largest, 'largest definition');
time(largestImported, 'largest definition that imports');
