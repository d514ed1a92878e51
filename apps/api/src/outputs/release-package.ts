import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { zipSync } from 'fflate';
import type { AppServices } from '../app-services';
import type { DbOrTx } from '../db/database';
import type { UserRow } from '../users/user-repository';
import { releaseRepository, type ReleaseRequestView } from './release-repository';

/** manifest.json: the machine-readable record of what was released and every check and review behind it. */
export interface ReleaseManifest {
  manifest_version: 1;
  request: { id: string; title: string; workbench_id: string; workbench_name: string; author: string; submitted_at: string | null; released_at: string; released_by: string; round: number };
  groups: { name: string; context: string; controls: string; files: string[] }[];
  files: {
    name: string;
    group: string;
    sha256: string;
    size_bytes: number;
    content_type: string;
    version: number;
    source: { notebook_id: string | null; path: string };
    checks: { verdict: string | null; checks_version: string | null; parameters: Record<string, unknown>; findings: unknown[]; finished_at: string | null };
    reviews: { reviewer: string; vote: string; comment: string | null; voted_at: string }[];
  }[];
  comments: { author: string; body: string; created_at: string }[];
}

/**
 * Builds the package of an approved request: its output files (never the supporting ones) and
 * manifest.json, as one zip. Each file's checksum is taken again from the stored bytes and must
 * match the one recorded when it was added, so what leaves is exactly what was reviewed.
 */
export async function buildPackage(services: AppServices, tx: DbOrTx, request: ReleaseRequestView & { releasedAt: Date }, releasedBy: UserRow) {
  const [groups, files, votes, comments, reviewers] = await Promise.all([
    releaseRepository.groups(tx, request.id),
    releaseRepository.files(tx, request.id),
    releaseRepository.votes(tx, request.id),
    releaseRepository.comments(tx, request.id),
    releaseRepository.reviewers(tx, request.id, request.round),
  ]);
  const outputs = files.filter((f) => f.kind === 'OUTPUT');
  const entries: Record<string, Uint8Array> = {};
  for (const file of outputs) {
    const bytes = await fs.readFile(services.workbenchStore.localPath(file.storageKey));
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (sha256 !== file.sha256) throw new Error(`The stored copy of "${file.name}" no longer matches its checksum; nothing was released.`);
    entries[`files/${file.name}`] = bytes;
  }
  const groupName = new Map(groups.map((g) => [g.id, g.name]));
  const manifest: ReleaseManifest = {
    manifest_version: 1,
    request: {
      id: request.id,
      title: request.title,
      workbench_id: request.workbenchId,
      workbench_name: request.workbenchName,
      author: request.author.email,
      submitted_at: request.submittedAt?.toISOString() ?? null,
      released_at: request.releasedAt.toISOString(),
      released_by: releasedBy.email,
      round: request.round,
    },
    groups: groups.map((g) => ({ name: g.name, context: g.context, controls: g.controls, files: outputs.filter((f) => f.groupId === g.id).map((f) => f.name) })),
    files: outputs.map((f) => ({
      name: f.name,
      group: groupName.get(f.groupId) ?? '',
      sha256: f.sha256,
      size_bytes: f.sizeBytes,
      content_type: f.contentType,
      version: f.version,
      source: { notebook_id: f.notebookId, path: f.sourcePath },
      checks: { verdict: f.checkVerdict, checks_version: f.checksVersion, parameters: f.checkParameters, findings: f.checkFindings, finished_at: f.checkedAt?.toISOString() ?? null },
      reviews: votes
        .filter((v) => v.fileId === f.id && reviewers.includes(v.reviewer.id))
        .map((v) => ({ reviewer: v.reviewer.email, vote: v.vote, comment: v.comment, voted_at: v.votedAt.toISOString() })),
    })),
    comments: comments.filter((c) => c.visibility === 'PUBLIC').map((c) => ({ author: c.author.email, body: c.body, created_at: c.createdAt.toISOString() })),
  };
  entries['manifest.json'] = new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`);
  // A fixed time in every entry: the same contents make the same zip.
  const zip = Buffer.from(zipSync(entries, { level: 6, mtime: request.releasedAt }));
  return { zip, sha256: createHash('sha256').update(zip).digest('hex'), manifest };
}
