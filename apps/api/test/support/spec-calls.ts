/** The calls of spec §7, as method and path. */
export const SPEC_CALLS = [
  'GET /api/v1/logs/', 'GET /api/v1/cohorts/', 'PATCH /api/v1/cohorts/{cohortId}/', 'GET /api/v1/data-explorer/schema/',
  'POST /api/v1/documents/', 'GET /api/v1/documents/{documentId}/', 'DELETE /api/v1/documents/{documentId}/',
  'GET /api/v1/queries/', 'POST /api/v1/queries/', 'PATCH /api/v1/queries/{queryId}/', 'DELETE /api/v1/queries/{queryId}/',
  'GET /api/v1/queries/{queryId}/executions/latest/', 'GET /api/v1/queries/{queryId}/executions/{queryExecutionId}/',
  'POST /api/v1/queries/{queryId}/executions/', 'POST /api/v1/queries/execute/',
  'GET /api/v1/users/', 'POST /api/v1/users/', 'GET /api/v1/users/me/', 'POST /api/v1/users/me/logout/', 'GET /api/v1/users/{userId}/',
  'POST /api/v1/users/invitation/{userId}/{userEmail}/', 'POST /api/v1/users/disable/{userId}/', 'POST /api/v1/users/enable/{userId}/',
  'POST /api/v1/users/revoke/{userId}/', 'GET /api/v1/vizzly/tokens/{projectId}/',
  'GET /api/v1/workbenches/', 'POST /api/v1/workbenches/', 'GET /api/v1/workbenches/{workbenchId}/',
  'PUT /api/v1/workbenches/{workbenchId}/', 'DELETE /api/v1/workbenches/{workbenchId}/',
  'GET /api/v1/workbenches/{workbenchId}/zones/', 'GET /api/v1/workbenches/{workbenchId}/zone/{zone}/machine-types/',
  'GET /api/v1/workbenches/{workbenchId}/zone/{zone}/accelerator-types/', 'GET /api/v1/workbenches/{workbenchId}/environments/',
  'GET /api/v1/workbenches/{workbenchId}/notebooks/', 'POST /api/v1/workbenches/{workbenchId}/notebooks/',
  'DELETE /api/v1/workbenches/{workbenchId}/notebooks/{notebookId}/',
  'POST /api/v1/workbenches/{workbenchId}/notebooks/{notebookId}/start/',
  'POST /api/v1/workbenches/{workbenchId}/notebooks/{notebookId}/stop/',
];
