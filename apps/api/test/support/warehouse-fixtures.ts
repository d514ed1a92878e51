import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** A sample OMOP dataset kept beside the repository (`../shared/datasets/<name>`), never copied into it. */
export const sampleDataset = (name: 'synthea27nj-omop-5.4' | 'eunomia-gibleed-omop-5.3') =>
  path.resolve(repoRoot, '..', 'shared', 'datasets', name);
