import type { Document } from '@hdp/contract';
import type { DocumentWithOwner } from './document-repository';

/** A document's metadata as the API shows it; the storage key stays inside. */
export function presentDocument(row: DocumentWithOwner): Document {
  return {
    id: row.id,
    name: row.originalName,
    content_type: row.contentType,
    size_bytes: row.sizeBytes,
    sha256: row.sha256,
    scan_status: row.scanStatus,
    owner: { id: row.ownerId, email: row.ownerEmail },
    created_at: row.createdAt.toISOString(),
  };
}
