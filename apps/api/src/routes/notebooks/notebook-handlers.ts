import { auditContextOf } from '../../http/audit-context';
import { currentUser, type RouteHandlers } from '../../http/route-types';
import { changeNotebook, createNotebook, listNotebooks, openNotebook } from '../../notebooks/notebook-commands';
import { liftHold, listHolds } from '../../notebooks/egress/egress-holds';

export const notebookHandlers: RouteHandlers = {
  listNotebooks: async (request) => {
    const { skip, limit, search, order_by: orderBy } = request.query;
    return listNotebooks(request.server.services, currentUser(request), request.params.workbenchId, { skip, limit, search: search || undefined, orderBy }, auditContextOf(request));
  },

  createNotebook: async (request, reply) => {
    const notebook = await createNotebook(request.server.services, currentUser(request), request.params.workbenchId, request.body, auditContextOf(request));
    return reply.code(202).send(notebook);
  },

  startNotebook: async (request, reply) => {
    const { workbenchId, notebookId } = request.params;
    return reply.code(202).send(await changeNotebook(request.server.services, currentUser(request), workbenchId, notebookId, 'start', auditContextOf(request)));
  },

  stopNotebook: async (request, reply) => {
    const { workbenchId, notebookId } = request.params;
    return reply.code(202).send(await changeNotebook(request.server.services, currentUser(request), workbenchId, notebookId, 'stop', auditContextOf(request)));
  },

  deleteNotebook: async (request, reply) => {
    const { workbenchId, notebookId } = request.params;
    return reply.code(202).send(await changeNotebook(request.server.services, currentUser(request), workbenchId, notebookId, 'delete', auditContextOf(request)));
  },

  openNotebook: async (request) => {
    const { workbenchId, notebookId } = request.params;
    return openNotebook(request.server.services, currentUser(request), workbenchId, notebookId, auditContextOf(request));
  },

  listNotebookHolds: async (request) => listHolds(request.server.services),

  liftNotebookHold: async (request) => liftHold(request.server.services, currentUser(request), request.params.holdId, auditContextOf(request)),
};
