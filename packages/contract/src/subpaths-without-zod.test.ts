import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

// The web app imports values only from the contract's subpaths, never from its index: the index
// brings every schema and zod with it (about 47 kB gzip), and a single value import of it once put
// that into the data explorer's first load. Each subpath is bundled here as the browser's bundler
// would, and must not reach zod.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const exports = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).exports as Record<string, string>;
const subpaths = Object.entries(exports).filter(([name]) => name !== '.');

describe('the contract subpaths the web app imports', () => {
  it('are listed', () => expect(subpaths.length).toBeGreaterThan(5));

  it.each(subpaths)('%s bundles without zod', async (name, file) => {
    const result = await build({ entryPoints: [path.join(root, file)], bundle: true, write: false, metafile: true, platform: 'browser', format: 'esm', external: ['node:*'], logLevel: 'silent' });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((input) => /(^|\/)src\//.test(input))).toBe(true);
    expect(inputs.filter((input) => /node_modules\/zod\//.test(input)), `${name} reaches zod`).toEqual([]);
  });

  it('the index does reach zod (the check can fail)', async () => {
    const result = await build({ entryPoints: [path.join(root, exports['.']!)], bundle: true, write: false, metafile: true, platform: 'browser', format: 'esm', logLevel: 'silent' });
    expect(Object.keys(result.metafile.inputs).some((input) => /node_modules\/zod\//.test(input))).toBe(true);
  });
});
