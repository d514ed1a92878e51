import { isOwnerOrAdmin } from '@hdp/contract';
import type { FastifyRequest } from 'fastify';
import { currentUser, type RouteHandlers } from '../../http/route-types';
import { auditContextOf } from '../../http/audit-context';
import { appendAuditEntry, recordAuditEvent } from '../../audit/audit-trail';
import { badRequest, notFound } from '../../http/api-error';
import { attachmentDisposition } from '../../http/content-disposition';
import { documentRepository } from '../../documents/document-repository';
import { presentDocument } from '../../documents/document-presenter';
import { uploadDocument } from '../../documents/document-uploader';

const DOCUMENT_NOT_FOUND = 'Document not found.';

/**
 * Loads a document the current user may act on. Anyone else is told it does not exist, so its
 * existence does not leak, and the attempt is audited as a denial.
 */
async function accessibleDocument(request: FastifyRequest, id: string) {
  const { db } = request.server.services;
  const actor = currentUser(request);
  const document = await documentRepository.findById(db, id);
  if (document && isOwnerOrAdmin(actor, document.ownerId)) return document;
  if (document) {
    await recordAuditEvent(db, auditContextOf(request), {
      eventType: 'ACCESS_DENIED',
      outcome: 'DENIED',
      message: `${actor.email} was denied document ${id}`,
      resourceType: 'document',
      resourceId: id,
    });
  }
  throw notFound(DOCUMENT_NOT_FOUND);
}

export const documentHandlers: RouteHandlers = {
  listDocuments: async (request) => {
    const actor = currentUser(request);
    const { rows, ...total } = await documentRepository.list(request.server.services.db, {
      ownerId: actor.roles.includes('ADMIN') ? null : actor.id,
      skip: request.query.skip,
      limit: request.query.limit,
      orderBy: request.query.order_by,
    });
    return { documents: rows.map(presentDocument), ...total };
  },

  uploadDocument: async (request, reply) => {
    if (!request.isMultipart()) throw badRequest('body: send the document as multipart/form-data with a field named "file"');
    const part = await request.file();
    if (!part || part.fieldname !== 'file') throw badRequest('file: a multipart field named "file" is required');
    const document = await uploadDocument(request.server.services, currentUser(request), part, auditContextOf(request));
    return reply.code(201).send(presentDocument(document));
  },

  downloadDocument: async (request, reply) => {
    const document = await accessibleDocument(request, request.params.documentId);
    const { db, documentStore } = request.server.services;
    // Opening first: a missing file answers an error, not an audited download that never happened.
    const stream = await documentStore.open(document.storageKey);
    await db.transaction((tx) =>
      appendAuditEntry(tx, auditContextOf(request), {
        eventType: 'DOCUMENT_DOWNLOADED',
        outcome: 'SUCCESS',
        message: `${currentUser(request).email} downloaded "${document.originalName}"`,
        resourceType: 'document',
        resourceId: document.id,
      }),
    );
    return reply
      .header('content-type', document.contentType)
      .header('content-length', String(document.sizeBytes))
      .header('content-disposition', attachmentDisposition(document.originalName))
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .send(stream);
  },

  deleteDocument: async (request, reply) => {
    const document = await accessibleDocument(request, request.params.documentId);
    const { db, documentStore } = request.server.services;
    await db.transaction(async (tx) => {
      await documentRepository.delete(tx, document.id);
      await appendAuditEntry(tx, auditContextOf(request), {
        eventType: 'DOCUMENT_DELETED',
        outcome: 'SUCCESS',
        message: `${currentUser(request).email} deleted "${document.originalName}"`,
        resourceType: 'document',
        resourceId: document.id,
        details: { sha256: document.sha256, size_bytes: document.sizeBytes },
      });
    });
    // After the row is gone the file is unreachable; removing it last never orphans a row.
    await documentStore.remove(document.storageKey);
    return reply.code(204).send();
  },
};
