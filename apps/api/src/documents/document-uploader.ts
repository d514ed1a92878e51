import { createHash, randomUUID } from 'node:crypto';
import { Transform } from 'node:stream';
import type { MultipartFile } from '@fastify/multipart';
import { LIMITS } from '@hdp/contract';
import type { AppServices } from '../app-services';
import { appendAuditEntry, recordAuditEvent, type AuditContext } from '../audit/audit-trail';
import { ApiError, badRequest } from '../http/api-error';
import { isMultipartBodyError, MALFORMED_MULTIPART } from '../http/input-guard';
import type { UserRow } from '../users/user-repository';
import { checkContentType } from './content-type';
import { documentRepository, type DocumentWithOwner } from './document-repository';

/** Bytes read for magic-number detection. */
const HEAD_BYTES = 4100;

/** Hashes, counts and keeps the first bytes of a stream as it passes through. */
class UploadMeter extends Transform {
  readonly hash = createHash('sha256');
  size = 0;
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: () => void) {
    this.hash.update(chunk);
    this.size += chunk.length;
    if (this.headLength < HEAD_BYTES) {
      this.headChunks.push(chunk.subarray(0, HEAD_BYTES - this.headLength));
      this.headLength += Math.min(chunk.length, HEAD_BYTES - this.headLength);
    }
    this.push(chunk);
    callback();
  }

  head(): Buffer {
    return Buffer.concat(this.headChunks);
  }
}

/**
 * Receives one uploaded file: streams it to a temporary file while hashing it (never holding it
 * whole in memory), refuses it when over the cap, of a type not allowed, or infected, and
 * otherwise stores it under a generated name with its row and audit entry in one transaction.
 * A refused upload leaves no file and no row, and is audited as a failure.
 */
export async function uploadDocument(
  services: AppServices,
  actor: UserRow,
  part: MultipartFile,
  context: AuditContext,
): Promise<DocumentWithOwner> {
  const { documentStore, malwareScanner, config, db } = services;
  const key = randomUUID();
  const meter = new UploadMeter();
  const originalName = part.filename.slice(0, 255) || 'unnamed';
  // A body cut short or garbled fails the file stream itself (perhaps before this point): the
  // client's fault, not the store's.
  const temporary = await documentStore.receive(key, part.file, meter).catch((error: unknown) => {
    throw isMultipartBodyError(part, error) ? badRequest(MALFORMED_MULTIPART) : error;
  });

  const refuse = async (status: number, detail: string, reason: string) => {
    await documentStore.discard(temporary);
    await recordAuditEvent(db, context, {
      eventType: 'DOCUMENT_UPLOADED',
      outcome: 'FAILURE',
      message: `Upload of "${originalName}" by ${actor.email} refused: ${reason}`,
      resourceType: 'document',
      details: { name: originalName, reason, size_bytes: meter.size },
    });
    return new ApiError(status, detail);
  };

  if (part.file.truncated) {
    throw await refuse(413, `The file is larger than the limit of ${LIMITS.uploadMaxBytes.toLocaleString('en')} bytes.`, 'too large');
  }
  const verdict = await checkContentType(meter.head(), part.mimetype, config.documents.allowedTypes, meter.size);
  if (!verdict.ok) throw await refuse(415, verdict.detail, 'type not accepted');
  const scan = await malwareScanner.scan(temporary).catch(async (error: Error) => {
    throw await refuse(503, 'The malware scanner is not working; the file was not stored. Try again later.', error.message);
  });
  if (scan.status === 'INFECTED') {
    throw await refuse(422, `The file was refused: malware was found (${scan.signature}).`, `infected: ${scan.signature}`);
  }

  const sha256 = meter.hash.digest('hex');
  try {
    return await db.transaction(async (tx) => {
      const row = await documentRepository.insert(tx, {
        ownerId: actor.id,
        originalName,
        contentType: verdict.contentType,
        sizeBytes: meter.size,
        sha256,
        scanStatus: scan.status,
        storageKey: key,
      });
      await appendAuditEntry(tx, context, {
        eventType: 'DOCUMENT_UPLOADED',
        outcome: 'SUCCESS',
        message: `${actor.email} uploaded "${originalName}" (${meter.size} bytes)`,
        resourceType: 'document',
        resourceId: row.id,
        details: { name: originalName, content_type: verdict.contentType, size_bytes: meter.size, sha256, scan_status: scan.status },
      });
      // The file moves into place last: if this fails, the transaction rolls back too.
      await documentStore.commit(temporary, key);
      return { ...row, ownerEmail: actor.email };
    });
  } catch (error) {
    await documentStore.discard(temporary);
    await documentStore.remove(key);
    throw error;
  }
}
