import { z } from 'zod';
import type { Permission } from './permissions';
import { Id, ListQuery, listOf } from './schemas/common';
import { RefreshRequest, TokenRequest, TokenResponse } from './schemas/auth';
import { AcceptInvitationRequest, InvitationInfo, InvitationTokenRequest, InviteUsersRequest, InviteUsersResponse, Me, User, UserDirectory, UserDirectoryQuery, UserListQuery } from './schemas/users';
import { AuditChainReport, AuditEntry, AuditLogQuery } from './schemas/audit';
import { Document, DocumentListQuery } from './schemas/documents';
import { AtlasCohortDefinition, AtlasImportRequest, AtlasImportResult, DefinitionLint } from './schemas/atlas';
import { CohortCreate, CohortDetail, CohortList, CohortListQuery, CohortUpdate } from './schemas/cohorts';
import { CONCEPT_SET_ORDERS, ConceptSetCreate, ConceptSetUpdate, ConceptSetVersionQuery, SavedConceptSet } from './schemas/concept-sets';
import {
  AnonymousQueryExecutionCreate,
  ConceptList,
  ConceptSearchQuery,
  DataExplorerSchema,
  Dataset,
  QUERY_ORDERS,
  QueryCreate,
  QueryExecution,
  QueryResult,
  QueryUpdate,
  SavedQuery,
} from './schemas/data-explorer';
import {
  AcceleratorTypeList,
  MachineTypeList,
  NotebookEnvironmentList,
  Workbench,
  WorkbenchCreate,
  WorkbenchList,
  WorkbenchListQuery,
  WorkbenchSubmittedWithErrors,
  WorkbenchUpdate,
  ZoneList,
} from './schemas/workbenches';
import { Notebook, NotebookCreate, NotebookList, NotebookListQuery, NotebookOpen } from './schemas/notebooks';
import { NotebookHold, NotebookHoldList } from './schemas/notebook-holds';
import { VisualisationTokens } from './schemas/visualisation';
import {
  EnrolledFactor,
  FactorRename,
  MfaChallengeRequest,
  MfaEnrolAtSignInRequest,
  MfaEnrolAtSignInResponse,
  MfaSignInOptions,
  MfaStatus,
  MfaTokenRequest,
  MfaTokenResponse,
  RecoveryCodes,
  SessionList,
  SessionsEnded,
  SignInResponse,
  TotpConfirmRequest,
  TotpEnrolRequest,
  TotpEnrolment,
  WebauthnRegisterRequest,
  WebauthnRegistrationOptions,
} from './schemas/mfa';
import {
  OutputCandidateList,
  ReleaseCommentInput,
  ReleaseDecisionInput,
  ReleaseFileAdd,
  ReleaseFilePreview,
  ReleaseGroupInput,
  ReleaseRequest,
  ReleaseRequestCreate,
  ReleaseRequestList,
  ReleaseRequestListQuery,
  ReleaseVoteInput,
} from './schemas/outputs';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route: anyone (`public`), or an ACTIVE user whose roles the matrix allows
 * for `permission`.
 */
export type RouteAccess = { public: true } | { permission: Permission };

/** One call of the HTTP contract. The API registers every route from this table. */
export interface RouteContract {
  method: HttpMethod;
  /** OpenAPI-style path: `/api/v1/users/{userId}/`. */
  path: string;
  summary: string;
  tag: string;
  access: RouteAccess;
  params?: z.ZodObject;
  querystring?: z.ZodObject;
  body?: z.ZodType;
  /** Success responses by status; errors use the error body, except a documented 418 (stored with errors). */
  responses?: Partial<Record<200 | 201 | 202 | 204 | 418, z.ZodType>>;
  /** A call the platform adds to those of spec §7 (identity, invitations, verification, ...). */
  beyondSpec?: true;
  /** The body is a multipart form or the response a file: no JSON schema applies. */
  raw?: 'multipart-body' | 'file-response';
}

const p = <S extends z.ZodRawShape>(shape: S) => z.object(shape);
const workbench = { workbenchId: Id };
const notebook = { workbenchId: Id, notebookId: Id };
const releaseRequest = { requestId: Id };
const releaseFile = { requestId: Id, fileId: Id };

/** The contract of record: every call the web app makes (spec §7) plus the identity endpoints. */
export const ROUTES = {
  // Identity (embedded issuer)
  issueToken: {
    method: 'POST', path: '/api/v1/auth/token/', beyondSpec: true, tag: 'auth', access: { public: true },
    summary: 'Sign in with email and password; returns an id token and a refresh token, or a challenge for the second factor',
    body: TokenRequest, responses: { 200: SignInResponse },
  },
  refreshToken: {
    method: 'POST', path: '/api/v1/auth/refresh/', beyondSpec: true, tag: 'auth', access: { public: true },
    summary: 'Rotate a refresh token; reusing an old one revokes its whole family',
    body: RefreshRequest, responses: { 200: TokenResponse },
  },

  // Invitations (public: the token is the credential)
  inspectInvitation: {
    method: 'POST', path: '/api/v1/invitations/inspect/', beyondSpec: true, tag: 'auth', access: { public: true },
    summary: 'What an invitation link is for, before accepting it', body: InvitationTokenRequest,
    responses: { 200: InvitationInfo },
  },
  acceptInvitation: {
    method: 'POST', path: '/api/v1/invitations/accept/', beyondSpec: true, tag: 'auth', access: { public: true },
    summary: 'Accept an invitation: set a password (local) or prove an external identity',
    body: AcceptInvitationRequest, responses: { 200: User },
  },

  // Users
  getMe: {
    method: 'GET', path: '/api/v1/users/me/', tag: 'users', access: { permission: 'me:read' },
    summary: 'The current user, with the permissions they hold', responses: { 200: Me },
  },
  logout: {
    method: 'POST', path: '/api/v1/users/me/logout/', tag: 'users', access: { permission: 'me:logout' },
    summary: "Sign out: revoke the current user's refresh tokens", responses: { 204: z.null() },
  },
  listUsers: {
    method: 'GET', path: '/api/v1/users/', tag: 'users', access: { permission: 'users:list' },
    summary: 'List users', querystring: UserListQuery, responses: { 200: listOf('users', User) },
  },
  searchUserDirectory: {
    method: 'GET', path: '/api/v1/users/directory/', beyondSpec: true, tag: 'users', access: { permission: 'users:directory' },
    summary: 'Find people who can be added to a workbench (ACTIVE, with a data role) by part of their name or email',
    querystring: UserDirectoryQuery, responses: { 200: UserDirectory },
  },
  inviteUsers: {
    method: 'POST', path: '/api/v1/users/', tag: 'users', access: { permission: 'users:invite' },
    summary: 'Invite one or more users (body `request`); reports the outcome per address',
    body: InviteUsersRequest, responses: { 201: InviteUsersResponse },
  },
  getUser: {
    method: 'GET', path: '/api/v1/users/{userId}/', tag: 'users', access: { permission: 'users:read' },
    summary: 'One user', params: p({ userId: Id }), responses: { 200: User },
  },
  resendInvitation: {
    method: 'POST', path: '/api/v1/users/invitation/{userId}/{userEmail}/', tag: 'users',
    access: { permission: 'users:resendInvitation' }, summary: 'Re-send an invitation with a new link',
    params: p({ userId: Id, userEmail: z.email() }), responses: { 200: User },
  },
  disableUser: {
    method: 'POST', path: '/api/v1/users/disable/{userId}/', tag: 'users', access: { permission: 'users:disable' },
    summary: 'Disable a user', params: p({ userId: Id }), responses: { 200: User },
  },
  enableUser: {
    method: 'POST', path: '/api/v1/users/enable/{userId}/', tag: 'users', access: { permission: 'users:enable' },
    summary: 'Enable a disabled user', params: p({ userId: Id }), responses: { 200: User },
  },
  revokeInvitation: {
    method: 'POST', path: '/api/v1/users/revoke/{userId}/', tag: 'users', access: { permission: 'users:revoke' },
    summary: 'Revoke a pending invitation', params: p({ userId: Id }), responses: { 200: User },
  },

  // Audit log
  listAuditLog: {
    method: 'GET', path: '/api/v1/logs/', tag: 'audit', access: { permission: 'auditLog:read' },
    summary: 'Read the audit log', querystring: AuditLogQuery, responses: { 200: listOf('entries', AuditEntry) },
  },
  verifyAuditLog: {
    method: 'GET', path: '/api/v1/logs/verify/', beyondSpec: true, tag: 'audit', access: { permission: 'auditLog:read' },
    summary: 'Verify the hash chain of the audit log (cached for a minute)', responses: { 200: AuditChainReport },
  },

  // Data explorer and queries
  getDataExplorerSchema: {
    method: 'GET', path: '/api/v1/data-explorer/schema/', tag: 'data-explorer',
    access: { permission: 'dataExplorer:readSchema' }, summary: 'Tables and fields a query can use',
    responses: { 200: DataExplorerSchema },
  },
  searchConcepts: {
    method: 'GET', path: '/api/v1/data-explorer/concepts/', tag: 'data-explorer',
    access: { permission: 'dataExplorer:readSchema' }, beyondSpec: true,
    summary: 'Search concepts by name or code within a domain (the concept picker)',
    querystring: ConceptSearchQuery, responses: { 200: ConceptList },
  },
  listWithheldAnswers: {
    method: 'GET', path: '/api/v1/data-explorer/withheld-answers/', tag: 'data-explorer',
    access: { permission: 'disclosure:reviewWithheld' }, beyondSpec: true,
    summary: 'Answers withheld by the tracker defence (audit entries DISCLOSURE_TRACKER_SUSPECTED), newest first, with the earlier answers involved',
    querystring: ListQuery, responses: { 200: listOf('entries', AuditEntry) },
  },
  getDataset: {
    method: 'GET', path: '/api/v1/data-explorer/dataset/', tag: 'data-explorer',
    access: { permission: 'dataExplorer:readDataset' }, beyondSpec: true,
    summary: 'The dataset in use: persons (released like a query with no criteria), records per domain, CDM version, source, load date',
    responses: { 200: Dataset },
  },
  listQueries: {
    method: 'GET', path: '/api/v1/queries/', tag: 'queries', access: { permission: 'queries:list' },
    summary: 'List saved queries: your own (all of them for an ADMIN)',
    querystring: ListQuery.omit({ search: true }).extend({
      name_search: z.string().trim().max(200).optional(),
      id_search: z.string().trim().max(64).optional(),
      email_search: z.string().trim().max(320).optional(),
      created_by: z.string().trim().max(64).optional(),
      order_by: z.enum(QUERY_ORDERS).default('-updated_at'),
    }),
    responses: { 200: listOf('queries', SavedQuery) },
  },
  createQuery: {
    method: 'POST', path: '/api/v1/queries/', tag: 'queries', access: { permission: 'queries:create' },
    summary: 'Save a query (body queryCreate)', body: QueryCreate, responses: { 201: SavedQuery },
  },
  updateQuery: {
    method: 'PATCH', path: '/api/v1/queries/{queryId}/', tag: 'queries', access: { permission: 'queries:update' },
    summary: 'Update a saved query (body queryUpdate); bumps its version', params: p({ queryId: Id }),
    body: QueryUpdate, responses: { 200: SavedQuery },
  },
  deleteQuery: {
    method: 'DELETE', path: '/api/v1/queries/{queryId}/', tag: 'queries', access: { permission: 'queries:delete' },
    summary: 'Delete a saved query and its executions', params: p({ queryId: Id }), responses: { 204: z.null() },
  },
  getLatestQueryExecution: {
    method: 'GET', path: '/api/v1/queries/{queryId}/executions/latest/', tag: 'queries',
    access: { permission: 'queries:read' }, summary: 'The latest execution of a saved query', params: p({ queryId: Id }),
    responses: { 200: QueryExecution },
  },
  getQueryExecution: {
    method: 'GET', path: '/api/v1/queries/{queryId}/executions/{queryExecutionId}/', tag: 'queries',
    access: { permission: 'queries:read' }, summary: 'One execution of a saved query',
    params: p({ queryId: Id, queryExecutionId: Id }), responses: { 200: QueryExecution },
  },
  executeQuery: {
    method: 'POST', path: '/api/v1/queries/{queryId}/executions/', tag: 'queries',
    access: { permission: 'queries:execute' }, summary: 'Start a run of a saved query; answers at once with the PENDING execution',
    params: p({ queryId: Id }), responses: { 202: QueryExecution },
  },
  importAtlasQuery: {
    method: 'POST', path: '/api/v1/queries/import/atlas/', tag: 'queries', access: { permission: 'queries:importAtlas' }, beyondSpec: true,
    summary: 'Save a query from an ATLAS (OHDSI Circe) cohort definition JSON, with the warnings about it; an unsupported construct is a 422 naming its place',
    body: AtlasImportRequest, responses: { 201: AtlasImportResult },
  },
  exportAtlasQuery: {
    method: 'GET', path: '/api/v1/queries/{queryId}/export/atlas/', tag: 'queries', access: { permission: 'queries:exportAtlas' }, beyondSpec: true,
    summary: "A saved query's cohort definition as ATLAS (OHDSI Circe) JSON",
    params: p({ queryId: Id }), responses: { 200: AtlasCohortDefinition },
  },
  lintQuery: {
    method: 'GET', path: '/api/v1/queries/{queryId}/lint/', tag: 'queries', access: { permission: 'queries:read' }, beyondSpec: true,
    summary: "Warnings about a saved query's cohort definition (after OHDSI circe-be's checks)",
    params: p({ queryId: Id }), responses: { 200: DefinitionLint },
  },
  executeAnonymousQuery: {
    method: 'POST', path: '/api/v1/queries/execute/', tag: 'queries', access: { permission: 'queries:execute' },
    summary: 'Run an unsaved query (body anonymousQueryExecutionCreate) and answer with its aggregate results',
    body: AnonymousQueryExecutionCreate, responses: { 200: QueryResult },
  },

  // Saved concept sets (cohort definitions pin a version of one)
  listConceptSets: {
    method: 'GET', path: '/api/v1/concept-sets/', tag: 'concept-sets', access: { permission: 'conceptSets:list' }, beyondSpec: true,
    summary: 'List saved concept sets: your own (all of them for an ADMIN), newest version of each',
    querystring: ListQuery.extend({ order_by: z.enum(CONCEPT_SET_ORDERS).default('-updated_at') }),
    responses: { 200: listOf('concept_sets', SavedConceptSet) },
  },
  createConceptSet: {
    method: 'POST', path: '/api/v1/concept-sets/', tag: 'concept-sets', access: { permission: 'conceptSets:create' }, beyondSpec: true,
    summary: 'Save a concept set (version 1)', body: ConceptSetCreate, responses: { 201: SavedConceptSet },
  },
  getConceptSet: {
    method: 'GET', path: '/api/v1/concept-sets/{conceptSetId}/', tag: 'concept-sets', access: { permission: 'conceptSets:read' }, beyondSpec: true,
    summary: 'One saved concept set (the newest version, or `version`), with its resolved concept count and its versions',
    params: p({ conceptSetId: Id }), querystring: ConceptSetVersionQuery, responses: { 200: SavedConceptSet },
  },
  updateConceptSet: {
    method: 'PATCH', path: '/api/v1/concept-sets/{conceptSetId}/', tag: 'concept-sets', access: { permission: 'conceptSets:update' }, beyondSpec: true,
    summary: 'Change a saved concept set: keeps the old version and makes a new one (queries stay pinned to theirs)',
    params: p({ conceptSetId: Id }), body: ConceptSetUpdate, responses: { 200: SavedConceptSet },
  },
  deleteConceptSet: {
    method: 'DELETE', path: '/api/v1/concept-sets/{conceptSetId}/', tag: 'concept-sets', access: { permission: 'conceptSets:delete' }, beyondSpec: true,
    summary: 'Delete a saved concept set and its versions; 409 while a saved query uses it',
    params: p({ conceptSetId: Id }), responses: { 204: z.null() },
  },

  // Cohorts
  listCohorts: {
    method: 'GET', path: '/api/v1/cohorts/', tag: 'cohorts', access: { permission: 'cohorts:list' },
    summary: 'List cohorts: published ones and your own (all, for a DATA_STEWARD or ADMIN), with the tags in use',
    querystring: CohortListQuery, responses: { 200: CohortList },
  },
  createCohort: {
    method: 'POST', path: '/api/v1/cohorts/', tag: 'cohorts', access: { permission: 'cohorts:create' }, beyondSpec: true,
    summary: 'Make a DRAFT cohort from the persons of a successful execution of a saved query (body cohortCreate)',
    body: CohortCreate, responses: { 201: CohortDetail },
  },
  getCohort: {
    method: 'GET', path: '/api/v1/cohorts/{cohortId}/', tag: 'cohorts', access: { permission: 'cohorts:read' }, beyondSpec: true,
    summary: 'One cohort, with its version history and the suppressed demographics of its current version',
    params: p({ cohortId: Id }), responses: { 200: CohortDetail },
  },
  updateCohort: {
    method: 'PATCH', path: '/api/v1/cohorts/{cohortId}/', tag: 'cohorts', access: { permission: 'cohorts:update' },
    summary: 'Update a cohort (body cohortUpdate); a status change (publish, unpublish, archive) is for a DATA_STEWARD or ADMIN',
    params: p({ cohortId: Id }), body: CohortUpdate, responses: { 200: CohortDetail },
  },
  refreshCohort: {
    method: 'POST', path: '/api/v1/cohorts/{cohortId}/refresh/', tag: 'cohorts', access: { permission: 'cohorts:update' }, beyondSpec: true,
    summary: 'Run the source query again on the current data and keep its persons as a new version',
    params: p({ cohortId: Id }), responses: { 200: CohortDetail },
  },

  // Documents
  listDocuments: {
    method: 'GET', path: '/api/v1/documents/', tag: 'documents', access: { permission: 'documents:read' }, beyondSpec: true,
    summary: 'The documents you uploaded (all documents, for an ADMIN)', querystring: DocumentListQuery,
    responses: { 200: listOf('documents', Document) },
  },
  uploadDocument: {
    method: 'POST', path: '/api/v1/documents/', tag: 'documents', access: { permission: 'documents:upload' },
    summary: 'Upload a document: multipart field `file`, at most 20,000,000 bytes', raw: 'multipart-body',
    responses: { 201: Document },
  },
  downloadDocument: {
    method: 'GET', path: '/api/v1/documents/{documentId}/', tag: 'documents', access: { permission: 'documents:read' },
    summary: 'Download a document (an attachment, never cached)', params: p({ documentId: Id }), raw: 'file-response',
  },
  deleteDocument: {
    method: 'DELETE', path: '/api/v1/documents/{documentId}/', tag: 'documents',
    access: { permission: 'documents:delete' }, summary: 'Delete a document and its file', params: p({ documentId: Id }),
    responses: { 204: z.null() },
  },

  // Visualisation
  getVisualisationToken: {
    method: 'GET', path: '/api/v1/vizzly/tokens/{projectId}/', tag: 'visualisation',
    access: { permission: 'visualisation:issueToken' },
    summary: "Dashboard and data access tokens of the data visualisation service for a workbench (the project), for its members only; 503 when the service is not configured",
    params: p({ projectId: Id }), responses: { 200: VisualisationTokens },
  },

  // Workbenches
  listWorkbenches: {
    method: 'GET', path: '/api/v1/workbenches/', tag: 'workbenches', access: { permission: 'workbenches:list' },
    summary: 'List the workbenches the caller is a member of (an ADMIN: all)', querystring: WorkbenchListQuery,
    responses: { 200: WorkbenchList },
  },
  createWorkbench: {
    method: 'POST', path: '/api/v1/workbenches/', tag: 'workbenches', access: { permission: 'workbenches:create' },
    summary: 'Create a workbench (body workbenchCreate); 418 when part of it was refused',
    body: WorkbenchCreate, responses: { 201: Workbench, 418: WorkbenchSubmittedWithErrors },
  },
  getWorkbench: {
    method: 'GET', path: '/api/v1/workbenches/{workbenchId}/', tag: 'workbenches',
    access: { permission: 'workbenches:read' }, summary: 'One workbench', params: p(workbench),
    responses: { 200: Workbench },
  },
  updateWorkbench: {
    method: 'PUT', path: '/api/v1/workbenches/{workbenchId}/', tag: 'workbenches',
    access: { permission: 'workbenches:update' }, summary: 'Update a workbench (body workbenchUpdate); 409 on a stale version, 418 when part of it was refused',
    params: p(workbench), body: WorkbenchUpdate, responses: { 200: Workbench, 418: WorkbenchSubmittedWithErrors },
  },
  deleteWorkbench: {
    method: 'DELETE', path: '/api/v1/workbenches/{workbenchId}/', tag: 'workbenches',
    access: { permission: 'workbenches:delete' }, summary: 'Delete a workbench and its files; 409 while a notebook runs', params: p(workbench),
    responses: { 204: z.null() },
  },
  listWorkbenchZones: {
    method: 'GET', path: '/api/v1/workbenches/{workbenchId}/zones/', tag: 'workbenches',
    access: { permission: 'workbenches:read' }, summary: 'Zones a notebook can run in', params: p(workbench),
    responses: { 200: ZoneList },
  },
  listMachineTypes: {
    method: 'GET', path: '/api/v1/workbenches/{workbenchId}/zone/{zone}/machine-types/', tag: 'workbenches',
    access: { permission: 'workbenches:read' }, summary: 'Machine types in a zone',
    params: p({ ...workbench, zone: z.string().max(64) }), responses: { 200: MachineTypeList },
  },
  listAcceleratorTypes: {
    method: 'GET', path: '/api/v1/workbenches/{workbenchId}/zone/{zone}/accelerator-types/', tag: 'workbenches',
    access: { permission: 'workbenches:read' }, summary: 'Accelerator types in a zone',
    params: p({ ...workbench, zone: z.string().max(64) }), responses: { 200: AcceleratorTypeList },
  },
  listEnvironments: {
    method: 'GET', path: '/api/v1/workbenches/{workbenchId}/environments/', tag: 'workbenches',
    access: { permission: 'workbenches:read' }, summary: 'Notebook environments', params: p(workbench),
    responses: { 200: NotebookEnvironmentList },
  },

  // Notebooks
  listNotebooks: {
    method: 'GET', path: '/api/v1/workbenches/{workbenchId}/notebooks/', tag: 'notebooks',
    access: { permission: 'notebooks:list' }, summary: "List a workbench's notebooks", params: p(workbench),
    querystring: NotebookListQuery, responses: { 200: NotebookList },
  },
  createNotebook: {
    method: 'POST', path: '/api/v1/workbenches/{workbenchId}/notebooks/', tag: 'notebooks',
    access: { permission: 'notebooks:create' }, summary: 'Create a notebook (body notebookCreate); it is PROVISIONING until its server answers',
    params: p(workbench), body: NotebookCreate, responses: { 202: Notebook },
  },
  deleteNotebook: {
    method: 'DELETE', path: '/api/v1/workbenches/{workbenchId}/notebooks/{notebookId}/', tag: 'notebooks',
    access: { permission: 'notebooks:delete' }, summary: 'Delete a notebook and its files (DELETING until they are gone)', params: p(notebook),
    responses: { 202: Notebook },
  },
  startNotebook: {
    method: 'POST', path: '/api/v1/workbenches/{workbenchId}/notebooks/{notebookId}/start/', tag: 'notebooks',
    access: { permission: 'notebooks:start' }, summary: 'Start a stopped or failed notebook (STARTING until its server answers)', params: p(notebook),
    responses: { 202: Notebook },
  },
  stopNotebook: {
    method: 'POST', path: '/api/v1/workbenches/{workbenchId}/notebooks/{notebookId}/stop/', tag: 'notebooks',
    access: { permission: 'notebooks:stop' }, summary: 'Stop a running notebook; its files stay', params: p(notebook),
    responses: { 202: Notebook },
  },
  openNotebook: {
    method: 'POST', path: '/api/v1/workbenches/{workbenchId}/notebooks/{notebookId}/open/', tag: 'notebooks', beyondSpec: true,
    access: { permission: 'notebooks:open' }, summary: "A single-use ticket that opens a running notebook at its own origin, posted there by the web app's page (its creator only)", params: p(notebook),
    responses: { 200: NotebookOpen },
  },
  // Safe outputs: release requests (the airlock), their automatic checks and their review
  listOutputCandidates: {
    method: 'GET', path: '/api/v1/workbenches/{workbenchId}/outputs/files/', tag: 'outputs', beyondSpec: true,
    access: { permission: 'outputs:create' }, summary: "Files of the caller's own notebooks' homes that a release request could take (and why not, for each that cannot)",
    params: p(workbench), responses: { 200: OutputCandidateList },
  },
  listReleaseRequests: {
    method: 'GET', path: '/api/v1/workbenches/{workbenchId}/release-requests/', tag: 'outputs', beyondSpec: true,
    access: { permission: 'outputs:read' }, summary: "A workbench's release requests, newest first (its members)", params: p(workbench),
    querystring: ReleaseRequestListQuery, responses: { 200: ReleaseRequestList },
  },
  createReleaseRequest: {
    method: 'POST', path: '/api/v1/workbenches/{workbenchId}/release-requests/', tag: 'outputs', beyondSpec: true,
    access: { permission: 'outputs:create' }, summary: 'Start a release request (PENDING): OWNER and WRITER members', params: p(workbench),
    body: ReleaseRequestCreate, responses: { 201: ReleaseRequest },
  },
  getReleaseRequest: {
    method: 'GET', path: '/api/v1/release-requests/{requestId}/', tag: 'outputs', beyondSpec: true,
    access: { permission: 'outputs:read' }, summary: 'One release request: groups, files with their checks, votes (blinded), comments, what the caller may do',
    params: p(releaseRequest), responses: { 200: ReleaseRequest },
  },
  addReleaseGroup: {
    method: 'POST', path: '/api/v1/release-requests/{requestId}/groups/', tag: 'outputs', beyondSpec: true,
    access: { permission: 'outputs:create' }, summary: 'Add a group of files with its context and controls (the author, PENDING or RETURNED)',
    params: p(releaseRequest), body: ReleaseGroupInput, responses: { 201: ReleaseRequest },
  },
  updateReleaseGroup: {
    method: 'PUT', path: '/api/v1/release-requests/{requestId}/groups/{groupId}/', tag: 'outputs', beyondSpec: true,
    access: { permission: 'outputs:create' }, summary: "Change a group's name, context and controls",
    params: p({ requestId: Id, groupId: Id }), body: ReleaseGroupInput, responses: { 200: ReleaseRequest },
  },
  addReleaseFile: {
    method: 'POST', path: '/api/v1/release-requests/{requestId}/files/', tag: 'outputs', beyondSpec: true,
    access: { permission: 'outputs:create' }, summary: "Copy a file of one of the author's notebooks' homes into the request; its automatic checks start at once",
    params: p(releaseRequest), body: ReleaseFileAdd, responses: { 201: ReleaseRequest },
  },
  removeReleaseFile: {
    method: 'DELETE', path: '/api/v1/release-requests/{requestId}/files/{fileId}/', tag: 'outputs', beyondSpec: true,
    access: { permission: 'outputs:create' }, summary: 'Take a file out of the request', params: p(releaseFile), responses: { 200: ReleaseRequest },
  },
  getReleaseFilePreview: {
    method: 'GET', path: '/api/v1/release-requests/{requestId}/files/{fileId}/preview/', tag: 'outputs', beyondSpec: true,
    access: { permission: 'outputs:read' }, summary: "What the request page shows of a file: a table's first rows or a text",
    params: p(releaseFile), responses: { 200: ReleaseFilePreview },
  },
  getReleaseFileContent: {
    method: 'GET', path: '/api/v1/release-requests/{requestId}/files/{fileId}/content/', tag: 'outputs', beyondSpec: true,
    access: { permission: 'outputs:read' }, summary: "A file's bytes, to show inline: images for the request's readers, every file for its checkers",
    params: p(releaseFile), raw: 'file-response',
  },
  submitReleaseRequest: {
    method: 'POST', path: '/api/v1/release-requests/{requestId}/submit/', tag: 'outputs', beyondSpec: true,
    access: { permission: 'outputs:create' }, summary: 'Submit (or, after a return, resubmit) the request for review; the checkers are mailed',
    params: p(releaseRequest), responses: { 200: ReleaseRequest },
  },
  withdrawReleaseRequest: {
    method: 'POST', path: '/api/v1/release-requests/{requestId}/withdraw/', tag: 'outputs', beyondSpec: true,
    access: { permission: 'outputs:create' }, summary: 'Withdraw the request (the author, before a decision)', params: p(releaseRequest),
    responses: { 200: ReleaseRequest },
  },
  listReviewQueue: {
    method: 'GET', path: '/api/v1/review/release-requests/', tag: 'outputs', beyondSpec: true,
    access: { permission: 'outputs:review' }, summary: 'Release requests waiting for the caller: submitted, in review or approved, of workbenches the caller is not in',
    querystring: ReleaseRequestListQuery, responses: { 200: ReleaseRequestList },
  },
  voteOnReleaseFile: {
    method: 'PUT', path: '/api/v1/release-requests/{requestId}/files/{fileId}/vote/', tag: 'outputs', beyondSpec: true,
    access: { permission: 'outputs:review' }, summary: "The caller's vote on an output file (a vote against the automatic verdict needs a comment)",
    params: p(releaseFile), body: ReleaseVoteInput, responses: { 200: ReleaseRequest },
  },
  submitReleaseReview: {
    method: 'POST', path: '/api/v1/release-requests/{requestId}/review/', tag: 'outputs', beyondSpec: true,
    access: { permission: 'outputs:review' }, summary: "Submit the caller's review (a vote on every output file)", params: p(releaseRequest),
    responses: { 200: ReleaseRequest },
  },
  commentOnReleaseRequest: {
    method: 'POST', path: '/api/v1/release-requests/{requestId}/comments/', tag: 'outputs', beyondSpec: true,
    access: { permission: 'outputs:read' }, summary: 'A comment: public (the author sees it) or, for checkers, private to the checkers',
    params: p(releaseRequest), body: ReleaseCommentInput, responses: { 201: ReleaseRequest },
  },
  returnReleaseRequest: {
    method: 'POST', path: '/api/v1/release-requests/{requestId}/return/', tag: 'outputs', beyondSpec: true,
    access: { permission: 'outputs:review' }, summary: 'Send a reviewed request back to its author for changes', params: p(releaseRequest),
    body: ReleaseDecisionInput, responses: { 200: ReleaseRequest },
  },
  rejectReleaseRequest: {
    method: 'POST', path: '/api/v1/release-requests/{requestId}/reject/', tag: 'outputs', beyondSpec: true,
    access: { permission: 'outputs:review' }, summary: 'Refuse a reviewed request for good', params: p(releaseRequest),
    body: ReleaseDecisionInput, responses: { 200: ReleaseRequest },
  },
  approveReleaseRequest: {
    method: 'POST', path: '/api/v1/release-requests/{requestId}/approve/', tag: 'outputs', beyondSpec: true,
    access: { permission: 'outputs:review' }, summary: 'Approve a reviewed request whose every output file has the required approvals', params: p(releaseRequest),
    responses: { 200: ReleaseRequest },
  },
  releaseReleaseRequest: {
    method: 'POST', path: '/api/v1/release-requests/{requestId}/release/', tag: 'outputs', beyondSpec: true,
    access: { permission: 'outputs:review' }, summary: 'Release an approved request: its output files and manifest.json become the package', params: p(releaseRequest),
    responses: { 200: ReleaseRequest },
  },
  downloadReleasePackage: {
    method: 'GET', path: '/api/v1/release-requests/{requestId}/package/', tag: 'outputs', beyondSpec: true,
    access: { permission: 'outputs:read' }, summary: 'The released package (a zip of the output files and manifest.json): its author and the workbench OWNERs',
    params: p(releaseRequest), raw: 'file-response',
  },

  // Holds placed by the notebook egress hard limit (docs/outputs.md)
  listNotebookHolds: {
    method: 'GET', path: '/api/v1/notebook-holds/', tag: 'notebooks', beyondSpec: true,
    access: { permission: 'notebookHolds:list' }, summary: 'Holds on users\' notebooks not yet lifted (the egress hard limit)',
    responses: { 200: NotebookHoldList },
  },
  liftNotebookHold: {
    method: 'POST', path: '/api/v1/notebook-holds/{holdId}/lift/', tag: 'notebooks', beyondSpec: true,
    access: { permission: 'notebookHolds:lift' }, summary: 'Lift a hold: the user may start and open notebooks again', params: p({ holdId: Id }),
    responses: { 200: NotebookHold },
  },

  // Multi-factor sign-in (public: the challenge from the password step is the credential)
  issueMfaToken: {
    method: 'POST', path: '/api/v1/auth/token/mfa/', beyondSpec: true, tag: 'auth', access: { public: true },
    summary: "Sign-in's second step: the password step's challenge with an authenticator code, recovery code or passkey; returns the tokens",
    body: MfaTokenRequest, responses: { 200: MfaTokenResponse },
  },
  mfaSignInOptions: {
    method: 'POST', path: '/api/v1/auth/mfa/options/', beyondSpec: true, tag: 'auth', access: { public: true },
    summary: 'WebAuthn options for signing in with a passkey (null when the person has none)',
    body: MfaChallengeRequest, responses: { 200: MfaSignInOptions },
  },
  enrolMfaAtSignIn: {
    method: 'POST', path: '/api/v1/auth/mfa/enrol/', beyondSpec: true, tag: 'auth', access: { public: true },
    summary: 'Start enrolling a first second factor during sign-in (when the platform requires one and the person has none)',
    body: MfaEnrolAtSignInRequest, responses: { 200: MfaEnrolAtSignInResponse },
  },

  // The account page: one's own second factors and sessions
  getMyMfa: {
    method: 'GET', path: '/api/v1/users/me/mfa/', beyondSpec: true, tag: 'account', access: { permission: 'account:manageFactors' },
    summary: "The caller's second factors and how many recovery codes are left", responses: { 200: MfaStatus },
  },
  startTotpEnrolment: {
    method: 'POST', path: '/api/v1/users/me/mfa/totp/', beyondSpec: true, tag: 'account', access: { permission: 'account:manageFactors' },
    summary: 'Start adding an authenticator app: a secret and its QR code; the factor counts once a code is confirmed',
    body: TotpEnrolRequest, responses: { 200: TotpEnrolment },
  },
  confirmTotpEnrolment: {
    method: 'POST', path: '/api/v1/users/me/mfa/totp/{factorId}/confirm/', beyondSpec: true, tag: 'account',
    access: { permission: 'account:manageFactors' }, summary: 'Confirm an authenticator app with a code it shows',
    params: p({ factorId: Id }), body: TotpConfirmRequest, responses: { 200: EnrolledFactor },
  },
  webauthnRegistrationOptions: {
    method: 'POST', path: '/api/v1/users/me/mfa/webauthn/options/', beyondSpec: true, tag: 'account',
    access: { permission: 'account:manageFactors' }, summary: 'Options for registering a passkey or security key', responses: { 200: WebauthnRegistrationOptions },
  },
  registerWebauthn: {
    method: 'POST', path: '/api/v1/users/me/mfa/webauthn/', beyondSpec: true, tag: 'account', access: { permission: 'account:manageFactors' },
    summary: "Register a passkey or security key from the browser's answer to the options", body: WebauthnRegisterRequest,
    responses: { 200: EnrolledFactor },
  },
  renameMfaFactor: {
    method: 'PATCH', path: '/api/v1/users/me/mfa/{factorId}/', beyondSpec: true, tag: 'account', access: { permission: 'account:manageFactors' },
    summary: 'Rename a second factor', params: p({ factorId: Id }), body: FactorRename, responses: { 200: EnrolledFactor },
  },
  removeMfaFactor: {
    method: 'DELETE', path: '/api/v1/users/me/mfa/{factorId}/', beyondSpec: true, tag: 'account', access: { permission: 'account:manageFactors' },
    summary: 'Remove a second factor (never the last one while the platform requires one)', params: p({ factorId: Id }), responses: { 204: z.null() },
  },
  regenerateRecoveryCodes: {
    method: 'POST', path: '/api/v1/users/me/mfa/recovery-codes/', beyondSpec: true, tag: 'account',
    access: { permission: 'account:manageFactors' }, summary: 'Ten new recovery codes (shown once); the old ones stop working', responses: { 200: RecoveryCodes },
  },
  listMySessions: {
    method: 'GET', path: '/api/v1/users/me/sessions/', beyondSpec: true, tag: 'account', access: { permission: 'account:manageSessions' },
    summary: "The caller's active sessions (device, address, last use)", responses: { 200: SessionList },
  },
  endMySession: {
    method: 'DELETE', path: '/api/v1/users/me/sessions/{sessionId}/', beyondSpec: true, tag: 'account', access: { permission: 'account:manageSessions' },
    summary: "End one of the caller's sessions", params: p({ sessionId: Id }), responses: { 204: z.null() },
  },
  endAllMySessions: {
    method: 'DELETE', path: '/api/v1/users/me/sessions/', beyondSpec: true, tag: 'account', access: { permission: 'account:manageSessions' },
    summary: "End all of the caller's sessions", responses: { 200: SessionsEnded },
  },
  resetUserMfa: {
    method: 'POST', path: '/api/v1/users/mfa-reset/{userId}/', beyondSpec: true, tag: 'users', access: { permission: 'userSecurity:resetFactors' },
    summary: "Remove a person's second factors and recovery codes; they enrol again at their next sign-in (their sessions end)",
    params: p({ userId: Id }), responses: { 204: z.null() },
  },
  endUserSessions: {
    method: 'POST', path: '/api/v1/users/sessions-end/{userId}/', beyondSpec: true, tag: 'users', access: { permission: 'userSecurity:endSessions' },
    summary: "End all of a person's sessions", params: p({ userId: Id }), responses: { 200: SessionsEnded },
  },
} as const satisfies Record<string, RouteContract>;

export type RouteId = keyof typeof ROUTES;

/** The routes of spec §7 — every call the web app makes. */
export const SPEC_ROUTE_IDS = (Object.keys(ROUTES) as RouteId[]).filter(
  (id) => !(ROUTES[id] as RouteContract).beyondSpec,
);
