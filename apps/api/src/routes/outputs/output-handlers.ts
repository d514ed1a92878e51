import { auditContextOf } from '../../http/audit-context';
import { attachmentDisposition } from '../../http/content-disposition';
import { currentUser, type RouteHandlers } from '../../http/route-types';
import {
  addFile,
  comment,
  createRequest,
  decide,
  listRequests,
  openPackage,
  release,
  removeFile,
  requestDetail,
  reviewQueue,
  saveGroup,
  submitRequest,
  submitReview,
  vote,
  withdrawRequest,
} from '../../outputs/release-commands';
import { loadRequest } from '../../outputs/release-access';
import { listCandidates, openFileContent, previewFile } from '../../outputs/release-files';

export const outputHandlers: RouteHandlers = {
  listOutputCandidates: async (request) => listCandidates(request.server.services, currentUser(request), request.params.workbenchId, auditContextOf(request)),

  listReleaseRequests: async (request) =>
    listRequests(request.server.services, currentUser(request), request.params.workbenchId, { skip: request.query.skip, limit: request.query.limit }, auditContextOf(request)),

  createReleaseRequest: async (request, reply) =>
    reply.code(201).send(await createRequest(request.server.services, currentUser(request), request.params.workbenchId, request.body, auditContextOf(request))),

  getReleaseRequest: async (request) => {
    const { services } = request.server;
    const actor = currentUser(request);
    return requestDetail(services, actor, await loadRequest(services, actor, request.params.requestId, auditContextOf(request)));
  },

  addReleaseGroup: async (request, reply) =>
    reply.code(201).send(await saveGroup(request.server.services, currentUser(request), request.params.requestId, null, request.body, auditContextOf(request))),

  updateReleaseGroup: async (request) =>
    saveGroup(request.server.services, currentUser(request), request.params.requestId, request.params.groupId, request.body, auditContextOf(request)),

  addReleaseFile: async (request, reply) =>
    reply.code(201).send(await addFile(request.server.services, currentUser(request), request.params.requestId, request.body, auditContextOf(request))),

  removeReleaseFile: async (request) => removeFile(request.server.services, currentUser(request), request.params.requestId, request.params.fileId, auditContextOf(request)),

  getReleaseFilePreview: async (request) => previewFile(request.server.services, currentUser(request), request.params.requestId, request.params.fileId, auditContextOf(request)),

  getReleaseFileContent: async (request, reply) => {
    const file = await openFileContent(request.server.services, currentUser(request), request.params.requestId, request.params.fileId, auditContextOf(request));
    return reply
      .header('content-type', file.contentType)
      .header('content-length', String(file.size))
      .header('content-disposition', attachmentDisposition(file.name).replace(/^attachment/, 'inline'))
      // An SVG or a PDF runs nothing of its own here.
      .header('content-security-policy', "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox")
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .send(file.stream);
  },

  submitReleaseRequest: async (request) => submitRequest(request.server.services, currentUser(request), request.params.requestId, auditContextOf(request)),
  withdrawReleaseRequest: async (request) => withdrawRequest(request.server.services, currentUser(request), request.params.requestId, auditContextOf(request)),

  listReviewQueue: async (request) => reviewQueue(request.server.services, currentUser(request), { skip: request.query.skip, limit: request.query.limit }),

  voteOnReleaseFile: async (request) =>
    vote(request.server.services, currentUser(request), request.params.requestId, request.params.fileId, request.body, auditContextOf(request)),

  submitReleaseReview: async (request) => submitReview(request.server.services, currentUser(request), request.params.requestId, auditContextOf(request)),

  commentOnReleaseRequest: async (request, reply) =>
    reply.code(201).send(await comment(request.server.services, currentUser(request), request.params.requestId, request.body, auditContextOf(request))),

  returnReleaseRequest: async (request) =>
    decide(request.server.services, currentUser(request), request.params.requestId, 'return', request.body?.comment ?? null, auditContextOf(request)),
  rejectReleaseRequest: async (request) =>
    decide(request.server.services, currentUser(request), request.params.requestId, 'reject', request.body?.comment ?? null, auditContextOf(request)),
  approveReleaseRequest: async (request) => decide(request.server.services, currentUser(request), request.params.requestId, 'approve', null, auditContextOf(request)),
  releaseReleaseRequest: async (request) => release(request.server.services, currentUser(request), request.params.requestId, auditContextOf(request)),

  downloadReleasePackage: async (request, reply) => {
    const file = await openPackage(request.server.services, currentUser(request), request.params.requestId, auditContextOf(request));
    return reply
      .header('content-type', 'application/zip')
      .header('content-length', String(file.size))
      .header('content-disposition', attachmentDisposition(file.fileName))
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .send(file.stream);
  },
};
