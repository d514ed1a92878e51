import fs from 'node:fs';
import path from 'node:path';
import { ANTD_COMPONENTS } from './antd-components';

const SRC = path.join(__dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The values (not types) a file imports from 'antd'. */
function antdImports(source: string): string[] {
  return [...source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'antd'/g)].flatMap((match) =>
    match[1]!
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name && !name.startsWith('type '))
      .map((name) => name.split(/\s+as\s+/)[0]!),
  );
}

describe('the antd stylesheet', () => {
  it('holds the styles of every antd component the app imports', () => {
    const listed = new Set<string>(ANTD_COMPONENTS);
    const unstyled = sourceFiles(SRC).flatMap((file) =>
      antdImports(fs.readFileSync(file, 'utf8'))
        .filter((name) => /^[A-Za-z]/.test(name) && name !== 'ConfigProvider' && name !== 'theme' && !listed.has(name))
        .map((name) => `${name} (${path.relative(SRC, file)})`),
    );
    expect(unstyled).toEqual([]);
  });
});
