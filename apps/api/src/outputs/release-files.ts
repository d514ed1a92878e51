import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { OUTPUT_FILE_TYPES, OUTPUT_LIMITS, type OutputCandidateList, type ReleaseFilePreview } from '@hdp/contract';
import type { AppServices } from '../app-services';
import { appendAuditEntry, type AuditContext } from '../audit/audit-trail';
import { forbidden, notFound } from '../http/api-error';
import { notebookRepository } from '../notebooks/notebook-repository';
import type { UserRow } from '../users/user-repository';
import { loadVisibleWorkbench } from '../workbenches/workbench-commands';
import { acceptedTypes, notebookHomeKey } from './release-commands';
import { loadRequest } from './release-access';
import { releaseRepository } from './release-repository';
import { parseTable } from './table-checks';

const MAX_CANDIDATES = 500;
const MAX_DEPTH = 6;
const TEXT_PREVIEW_BYTES = 100_000;

/**
 * The files of the caller's own notebooks' homes that a request could take, with why not for
 * those it cannot (a type not taken, too large). Hidden entries, links and `released/` (the
 * workbench's data, mounted in the home) are never listed.
 */
export async function listCandidates(services: AppServices, actor: UserRow, workbenchId: string, context: AuditContext): Promise<OutputCandidateList> {
  const { myRole } = await loadVisibleWorkbench(services, actor, workbenchId, context);
  if (myRole === null || myRole === 'READER') throw forbidden('Only OWNER and WRITER members of this workbench may request the release of outputs.');
  const { rows } = await notebookRepository.list(services.db, { workbenchId, orderBy: 'name', skip: 0, limit: 100 });
  const mine = rows.filter((n) => n.ownerId === actor.id);
  const types = acceptedTypes(services);
  const files: OutputCandidateList['files'] = [];
  let truncated = false;
  for (const notebook of mine) {
    const home = services.workbenchStore.localPath(notebookHomeKey(workbenchId, notebook.id));
    const walk = async (dir: string, depth: number): Promise<void> => {
      if (depth > MAX_DEPTH) return;
      const entries = await fs.readdir(path.join(home, dir), { withFileTypes: true }).catch(() => []);
      entries.sort((a, b) => a.name.localeCompare(b.name));
      for (const entry of entries) {
        if (entry.name.startsWith('.') || (depth === 0 && entry.name === 'released')) continue;
        const relative = dir ? `${dir}/${entry.name}` : entry.name;
        if (entry.isDirectory()) await walk(relative, depth + 1);
        else if (entry.isFile()) {
          if (files.length >= MAX_CANDIDATES) {
            truncated = true;
            return;
          }
          const stat = await fs.lstat(path.join(home, relative)).catch(() => undefined);
          if (!stat?.isFile()) continue;
          const ending = path.extname(entry.name).toLowerCase();
          const refusal = !types[ending]
            ? `${ending || 'Files without an ending'} cannot be released (the airlock takes ${Object.keys(types).join(', ')}).`
            : stat.size > services.config.outputs.maxFileBytes
              ? `Larger than the ${services.config.outputs.maxFileBytes} bytes a file may have.`
              : null;
          files.push({ notebook_id: notebook.id, notebook_name: notebook.name, path: relative, size_bytes: stat.size, modified_at: stat.mtime.toISOString(), refusal });
        }
      }
    };
    await walk('', 0);
  }
  return { files, truncated };
}

async function loadFile(services: AppServices, actor: UserRow, requestId: string, fileId: string, context: AuditContext) {
  const access = await loadRequest(services, actor, requestId, context);
  const file = await releaseRepository.findFile(services.db, requestId, fileId);
  if (!file) throw notFound('This request has no such file.');
  return { access, file };
}

/** What the request page shows of a file: a table's first rows (the flagged cells are in the checks), or a text's beginning. */
export async function previewFile(services: AppServices, actor: UserRow, requestId: string, fileId: string, context: AuditContext): Promise<ReleaseFilePreview> {
  const { file } = await loadFile(services, actor, requestId, fileId, context);
  const type = OUTPUT_FILE_TYPES[path.extname(file.name).toLowerCase()];
  const none: ReleaseFilePreview = { kind: 'none', header: [], rows: [], text: null, truncated: false };
  if (type?.image) return { ...none, kind: 'image' };
  if (type?.contentType === 'application/pdf' || !type) return none;
  const bytes = await fs.readFile(services.workbenchStore.localPath(file.storageKey));
  if (type.table) {
    try {
      const table = parseTable(bytes.toString('utf8'), type.table === 'csv' ? ',' : '\t');
      return { kind: 'table', header: table.header, rows: table.rows.slice(0, OUTPUT_LIMITS.previewRows), text: null, truncated: table.rows.length > OUTPUT_LIMITS.previewRows };
    } catch {
      // Not a readable table: shown as text below.
    }
  }
  return { ...none, kind: 'text', text: bytes.subarray(0, TEXT_PREVIEW_BYTES).toString('utf8'), truncated: bytes.length > TEXT_PREVIEW_BYTES };
}

/**
 * A file's bytes to show inline: images to anyone who may see the request (the page draws them),
 * every file to its checkers (a PDF to read). Audited; sent with a policy that runs nothing.
 */
export async function openFileContent(services: AppServices, actor: UserRow, requestId: string, fileId: string, context: AuditContext): Promise<{ stream: Readable; contentType: string; size: number; name: string }> {
  const { access, file } = await loadFile(services, actor, requestId, fileId, context);
  const image = OUTPUT_FILE_TYPES[path.extname(file.name).toLowerCase()]?.image === true;
  if (!image && !access.isChecker) throw forbidden('Only images are shown here; the table and text previews are on the request page. Nothing else leaves the workbench before release.');
  const stream = await services.workbenchStore.open(file.storageKey);
  await services.db.transaction((tx) =>
    appendAuditEntry(tx, context, {
      eventType: 'OUTPUT_FILE_VIEWED',
      outcome: 'SUCCESS',
      message: `${actor.email} viewed "${file.name}" of release request "${access.request.title}"`,
      resourceType: 'release_request',
      resourceId: requestId,
      details: { file_id: fileId, version: file.version, sha256: file.sha256 },
    }),
  );
  return { stream, contentType: file.contentType, size: file.sizeBytes, name: file.name };
}
