import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { DbOrTx } from '../db/database';
import type { FileStore } from '../storage/file-store';
import { parseTable, type CheckContext, type ReleasedDataFile, type ReleasedTable, type Table } from './table-checks';
import { releaseRepository } from './release-repository';

/** What one released data file gives the checks; kept while the file is unchanged (released data only changes on a new release). */
interface Digest {
  sha256: string;
  personIds: string[];
  /** A table's column names (empty for other files). */
  header: string[];
}
const digests = new Map<string, Digest>();
const MAX_DIGESTS = 256;

async function* walk(dir: string, depth = 0): AsyncGenerator<string> {
  if (depth > 6) return;
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full, depth + 1);
    else if (entry.isFile()) yield full;
  }
}

const contentOf = async (file: string) => {
  const bytes = await fs.readFile(file);
  return file.endsWith('.gz') ? gunzipSync(bytes) : bytes;
};

const delimiterOf = (name: string): ',' | '\t' | undefined => {
  const bare = name.replace(/\.gz$/, '');
  if (bare.endsWith('.csv')) return ',';
  if (bare.endsWith('.tsv')) return '\t';
  return undefined;
};

/** The workbench's released data (`released/`): each file's SHA-256 (of its content, unzipped) and the person ids of person tables. */
async function releasedData(store: FileStore, workbenchId: string): Promise<{ files: ReleasedDataFile[]; personIds: Set<string> }> {
  const root = store.localPath(`${workbenchId}/released`);
  const files: ReleasedDataFile[] = [];
  const personIds = new Set<string>();
  for await (const file of walk(root)) {
    const stat = await fs.stat(file);
    const cacheKey = `${file}|${stat.size}|${stat.mtimeMs}`;
    let digest = digests.get(cacheKey);
    if (!digest) {
      const content = await contentOf(file);
      const ids: string[] = [];
      const delimiter = delimiterOf(file);
      let header: string[] = [];
      if (delimiter) {
        const firstLine = content.subarray(0, Math.max(0, content.indexOf(10))).toString('utf8');
        header = firstLine ? parseTable(firstLine, delimiter).header : [];
      }
      if (path.basename(file).startsWith('person.csv')) {
        const table = parseTable(content.toString('utf8'), ',');
        const column = table.header.indexOf('person_id');
        if (column >= 0) for (const row of table.rows) ids.push(row[column]!.trim());
      }
      digest = { sha256: createHash('sha256').update(content).digest('hex'), personIds: ids, header };
      if (digests.size >= MAX_DIGESTS) digests.delete(digests.keys().next().value!);
      digests.set(cacheKey, digest);
    }
    for (const id of digest.personIds) personIds.add(id);
    const delimiter = delimiterOf(file);
    const name = path.relative(store.localPath(workbenchId), file);
    files.push({
      name,
      sha256: digest.sha256,
      header: digest.header,
      ...(delimiter && { table: async (): Promise<Table | undefined> => parseTable((await contentOf(file)).toString('utf8'), delimiter) }),
    });
  }
  return { files, personIds };
}

/** The tables already released from the workbench through the airlock (for the differencing check). */
async function releasedTables(db: DbOrTx, store: FileStore, workbenchId: string, exceptRequestId: string): Promise<ReleasedTable[]> {
  const tables: ReleasedTable[] = [];
  for (const file of await releaseRepository.releasedOutputFiles(db, workbenchId)) {
    if (file.requestId === exceptRequestId) continue;
    const delimiter = delimiterOf(file.name);
    if (!delimiter) continue;
    try {
      const text = await fs.readFile(store.localPath(file.storageKey), 'utf8');
      tables.push({ name: `${file.name} (request "${file.requestTitle}")`, table: parseTable(text, delimiter) });
    } catch {
      // A released table that cannot be read again is left out; the checks still compare the rest.
    }
  }
  return tables;
}

/** What the checks of a file in `workbenchId`'s request compare it with. */
export async function checkContextFor(db: DbOrTx, store: FileStore, workbenchId: string, requestId: string): Promise<CheckContext> {
  const [{ files, personIds }, tables] = await Promise.all([releasedData(store, workbenchId), releasedTables(db, store, workbenchId, requestId)]);
  return { personIds, releasedData: files, releasedTables: tables };
}

export { delimiterOf };
