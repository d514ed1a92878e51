import type {
  OutputCandidateList,
  ReleaseCommentInput,
  ReleaseFileAdd,
  ReleaseFilePreview,
  ReleaseGroupInput,
  ReleaseRequest,
  ReleaseRequestList,
  ReleaseVoteInput,
} from '@hdp/contract';
import { baseApi } from '@/lib/api/base-api';
import { contractPath } from '@/lib/api/contract-paths';
import { pathOf } from '@/lib/api/query-params';
import { blobUrlOf } from '@/features/documents/api/download-document';

const P = {
  list: contractPath('listReleaseRequests', '/api/v1/workbenches/{workbenchId}/release-requests/'),
  create: contractPath('createReleaseRequest', '/api/v1/workbenches/{workbenchId}/release-requests/'),
  candidates: contractPath('listOutputCandidates', '/api/v1/workbenches/{workbenchId}/outputs/files/'),
  get: contractPath('getReleaseRequest', '/api/v1/release-requests/{requestId}/'),
  groups: contractPath('addReleaseGroup', '/api/v1/release-requests/{requestId}/groups/'),
  files: contractPath('addReleaseFile', '/api/v1/release-requests/{requestId}/files/'),
  file: contractPath('removeReleaseFile', '/api/v1/release-requests/{requestId}/files/{fileId}/'),
  preview: contractPath('getReleaseFilePreview', '/api/v1/release-requests/{requestId}/files/{fileId}/preview/'),
  content: contractPath('getReleaseFileContent', '/api/v1/release-requests/{requestId}/files/{fileId}/content/'),
  vote: contractPath('voteOnReleaseFile', '/api/v1/release-requests/{requestId}/files/{fileId}/vote/'),
  review: contractPath('submitReleaseReview', '/api/v1/release-requests/{requestId}/review/'),
  comments: contractPath('commentOnReleaseRequest', '/api/v1/release-requests/{requestId}/comments/'),
  queue: contractPath('listReviewQueue', '/api/v1/review/release-requests/'),
  package: contractPath('downloadReleasePackage', '/api/v1/release-requests/{requestId}/package/'),
} as const;

/** The state changes, each a POST on `/api/v1/release-requests/{id}/<action>/`. */
export type ReleaseStep = 'submit' | 'withdraw' | 'return' | 'reject' | 'approve' | 'release';
const STEP_PATHS: Record<ReleaseStep, string> = {
  submit: contractPath('submitReleaseRequest', '/api/v1/release-requests/{requestId}/submit/'),
  withdraw: contractPath('withdrawReleaseRequest', '/api/v1/release-requests/{requestId}/withdraw/'),
  return: contractPath('returnReleaseRequest', '/api/v1/release-requests/{requestId}/return/'),
  reject: contractPath('rejectReleaseRequest', '/api/v1/release-requests/{requestId}/reject/'),
  approve: contractPath('approveReleaseRequest', '/api/v1/release-requests/{requestId}/approve/'),
  release: contractPath('releaseReleaseRequest', '/api/v1/release-requests/{requestId}/release/'),
};

const requestTags = (requestId: string) => [{ type: 'ReleaseRequests' as const, id: requestId }, { type: 'ReleaseRequests' as const, id: 'LIST' }];

/** The airlock's calls: a workbench's requests, one request and its changes, the checkers' queue. */
export const releaseRequestsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listReleaseRequests: build.query<ReleaseRequestList, { workbenchId: string; skip: number; limit: number }>({
      query: ({ workbenchId, ...params }) => ({ url: pathOf(P.list, { workbenchId }), method: 'GET', params }),
      providesTags: [{ type: 'ReleaseRequests', id: 'LIST' }],
    }),
    listReviewQueue: build.query<ReleaseRequestList, { skip: number; limit: number }>({
      query: (params) => ({ url: P.queue, method: 'GET', params }),
      providesTags: [{ type: 'ReleaseRequests', id: 'LIST' }],
    }),
    createReleaseRequest: build.mutation<ReleaseRequest, { workbenchId: string; title: string }>({
      query: ({ workbenchId, title }) => ({ url: pathOf(P.create, { workbenchId }), method: 'POST', body: { title } }),
      invalidatesTags: [{ type: 'ReleaseRequests', id: 'LIST' }],
    }),
    listOutputCandidates: build.query<OutputCandidateList, string>({
      query: (workbenchId) => ({ url: pathOf(P.candidates, { workbenchId }), method: 'GET' }),
      keepUnusedDataFor: 0,
    }),
    getReleaseRequest: build.query<ReleaseRequest, string>({
      query: (requestId) => ({ url: pathOf(P.get, { requestId }), method: 'GET' }),
      providesTags: (_result, _error, requestId) => [{ type: 'ReleaseRequests', id: requestId }],
    }),
    getReleaseFilePreview: build.query<ReleaseFilePreview, { requestId: string; fileId: string; version: number }>({
      query: ({ requestId, fileId }) => ({ url: pathOf(P.preview, { requestId, fileId }), method: 'GET' }),
    }),
    /** An image of the request as a blob address (fetched with the bearer token); the caller revokes it. */
    getReleaseFileContent: build.mutation<string, { requestId: string; fileId: string }>({
      query: (ref) => ({ url: pathOf(P.content, ref), method: 'GET', cache: 'no-store', responseHandler: blobUrlOf }),
    }),
    addReleaseGroup: build.mutation<ReleaseRequest, { requestId: string } & ReleaseGroupInput>({
      query: ({ requestId, ...body }) => ({ url: pathOf(P.groups, { requestId }), method: 'POST', body }),
      invalidatesTags: (_result, _error, { requestId }) => requestTags(requestId),
    }),
    addReleaseFile: build.mutation<ReleaseRequest, { requestId: string } & ReleaseFileAdd>({
      query: ({ requestId, ...body }) => ({ url: pathOf(P.files, { requestId }), method: 'POST', body }),
      invalidatesTags: (_result, _error, { requestId }) => requestTags(requestId),
    }),
    removeReleaseFile: build.mutation<ReleaseRequest, { requestId: string; fileId: string }>({
      query: (ref) => ({ url: pathOf(P.file, ref), method: 'DELETE' }),
      invalidatesTags: (_result, _error, { requestId }) => requestTags(requestId),
    }),
    voteOnReleaseFile: build.mutation<ReleaseRequest, { requestId: string; fileId: string } & ReleaseVoteInput>({
      query: ({ requestId, fileId, ...body }) => ({ url: pathOf(P.vote, { requestId, fileId }), method: 'PUT', body }),
      invalidatesTags: (_result, _error, { requestId }) => requestTags(requestId),
    }),
    submitReleaseReview: build.mutation<ReleaseRequest, string>({
      query: (requestId) => ({ url: pathOf(P.review, { requestId }), method: 'POST' }),
      invalidatesTags: (_result, _error, requestId) => requestTags(requestId),
    }),
    commentOnReleaseRequest: build.mutation<ReleaseRequest, { requestId: string } & ReleaseCommentInput>({
      query: ({ requestId, ...body }) => ({ url: pathOf(P.comments, { requestId }), method: 'POST', body }),
      invalidatesTags: (_result, _error, { requestId }) => requestTags(requestId),
    }),
    changeReleaseRequest: build.mutation<ReleaseRequest, { requestId: string; step: ReleaseStep; comment?: string }>({
      query: ({ requestId, step, comment }) => ({
        url: pathOf(STEP_PATHS[step], { requestId }),
        method: 'POST',
        ...(step === 'return' || step === 'reject' ? { body: comment ? { comment } : {} } : {}),
      }),
      invalidatesTags: (_result, _error, { requestId }) => requestTags(requestId),
    }),
    downloadReleasePackage: build.mutation<string, string>({
      query: (requestId) => ({ url: pathOf(P.package, { requestId }), method: 'GET', cache: 'no-store', timeout: 10 * 60_000, responseHandler: blobUrlOf }),
    }),
  }),
});

export const {
  useListReleaseRequestsQuery,
  useListReviewQueueQuery,
  useCreateReleaseRequestMutation,
  useListOutputCandidatesQuery,
  useGetReleaseRequestQuery,
  useGetReleaseFilePreviewQuery,
  useGetReleaseFileContentMutation,
  useAddReleaseGroupMutation,
  useAddReleaseFileMutation,
  useRemoveReleaseFileMutation,
  useVoteOnReleaseFileMutation,
  useSubmitReleaseReviewMutation,
  useCommentOnReleaseRequestMutation,
  useChangeReleaseRequestMutation,
  useDownloadReleasePackageMutation,
} = releaseRequestsApi;
