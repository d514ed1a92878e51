import { releaseActionAllowed, type ReleaseRequest, type ReleaseRequestSummary } from '@hdp/contract';
import type { UserRow } from '../users/user-repository';
import type { RequestAccess } from './release-access';
import type { CommentView, PersonView, ReleaseFileRow, ReleaseGroupRow, ReleaseRequestView, VoteView } from './release-repository';

const personOf = (p: PersonView) => ({ id: p.id, email: p.email, name: p.name ?? p.email });

export function presentSummary(request: ReleaseRequestView): ReleaseRequestSummary {
  return {
    id: request.id,
    workbench_id: request.workbenchId,
    workbench_name: request.workbenchName,
    title: request.title,
    state: request.state,
    author: personOf(request.author),
    required_reviews: request.requiredReviews,
    reviews_in: request.reviewsIn,
    file_count: request.fileCount,
    created_at: request.createdAt.toISOString(),
    updated_at: request.updatedAt.toISOString(),
    submitted_at: request.submittedAt?.toISOString() ?? null,
  };
}

/** Votes are shown to a checker's fellows once the required reviews are in (or the request has moved past review). */
export function votesUnblinded(request: ReleaseRequestView): boolean {
  return request.reviewsIn >= request.requiredReviews || !['SUBMITTED', 'PARTIALLY_REVIEWED'].includes(request.state);
}

export interface RequestContents {
  groups: ReleaseGroupRow[];
  files: ReleaseFileRow[];
  votes: VoteView[];
  comments: CommentView[];
  /** Checkers who submitted a review this round. */
  reviewers: string[];
}

/** What happens next, said to this caller. */
function nextStep(access: RequestAccess, contents: RequestContents, actor: UserRow): string {
  const { request } = access;
  const outputs = contents.files.filter((f) => f.kind === 'OUTPUT');
  const pending = contents.files.some((f) => f.checkState === 'PENDING');
  switch (request.state) {
    case 'PENDING':
    case 'RETURNED':
      if (!access.isAuthor) return request.state === 'RETURNED' ? 'Returned to its author for changes.' : 'Being prepared by its author.';
      if (contents.groups.length === 0) return 'Add a group: say what its files are (context) and what was done to make them safe (controls).';
      if (outputs.length === 0) return 'Add at least one output file from your notebooks.';
      if (pending) return 'Wait a moment: the automatic checks are still running.';
      if (contents.files.some((f) => f.checkVerdict === 'FAIL')) return 'Some files fail the automatic checks: fix them in your notebook and add them again, or explain in the group why they are safe, then submit.';
      return request.state === 'RETURNED' ? 'Answer the checkers’ comments, change what they asked, then submit again.' : 'Submit the request for review.';
    case 'SUBMITTED':
    case 'PARTIALLY_REVIEWED':
      if (access.isChecker) {
        if (contents.reviewers.includes(actor.id)) return `Your review is in; waiting for ${request.requiredReviews - request.reviewsIn} more.`;
        return 'Vote on every output file, then submit your review.';
      }
      return `Waiting for independent reviews: ${request.reviewsIn} of ${request.requiredReviews} in.`;
    case 'REVIEWED':
      return access.isChecker ? 'The reviews are in: approve, return it to the author, or reject it.' : 'Reviewed: waiting for the checkers’ decision.';
    case 'APPROVED':
      return access.isChecker ? 'Approved: release it to make the package.' : 'Approved: waiting to be released.';
    case 'RELEASED':
      return 'Released: the package can be downloaded by its author and the workbench’s OWNERs.';
    case 'REJECTED':
      return 'Rejected: these outputs may not leave the workbench.';
    case 'WITHDRAWN':
      return 'Withdrawn by its author.';
  }
}

/** The request as the API answers it to this caller: private comments and others' votes only where they may see them. */
export function presentRequest(access: RequestAccess, contents: RequestContents, actor: UserRow): ReleaseRequest {
  const { request, isAuthor, isChecker } = access;
  const unblinded = votesUnblinded(request);
  const votesOf = (fileId: string) =>
    isChecker
      ? contents.votes
          .filter((v) => v.fileId === fileId && (unblinded || v.reviewer.id === actor.id))
          .map((v) => ({ reviewer: personOf(v.reviewer), vote: v.vote, comment: v.comment, submitted: contents.reviewers.includes(v.reviewer.id) }))
      : [];
  const state = request.state;
  const mayDownload = state === 'RELEASED' && (isAuthor || access.myRole === 'OWNER');
  return {
    ...presentSummary(request),
    round: request.round,
    released_at: request.releasedAt?.toISOString() ?? null,
    groups: contents.groups.map((g) => ({
      id: g.id,
      name: g.name,
      context: g.context,
      controls: g.controls,
      files: contents.files
        .filter((f) => f.groupId === g.id)
        .map((f) => ({
          id: f.id,
          group_id: f.groupId,
          name: f.name,
          source: { notebook_id: f.notebookId, path: f.sourcePath },
          kind: f.kind,
          content_type: f.contentType,
          size_bytes: f.sizeBytes,
          sha256: f.sha256,
          version: f.version,
          magnitude_column: f.magnitudeColumn,
          added_at: f.addedAt.toISOString(),
          checks: {
            state: f.checkState,
            verdict: f.checkVerdict,
            findings: f.checkFindings,
            parameters: f.checkParameters,
            checks_version: f.checksVersion,
            finished_at: f.checkedAt?.toISOString() ?? null,
            error: f.checkError,
          },
          votes: votesOf(f.id),
        })),
    })),
    comments: contents.comments
      .filter((c) => c.visibility === 'PUBLIC' || (isChecker && (unblinded || c.author.id === actor.id)))
      .map((c) => ({ id: c.id, author: personOf(c.author), visibility: c.visibility, file_id: c.fileId, body: c.body, created_at: c.createdAt.toISOString() })),
    my_review_submitted: isChecker ? contents.reviewers.includes(actor.id) : null,
    votes_unblinded: isChecker && unblinded,
    abilities: {
      edit: isAuthor && releaseActionAllowed('edit', state),
      submit: isAuthor && releaseActionAllowed('submit', state),
      withdraw: isAuthor && releaseActionAllowed('withdraw', state),
      review: isChecker && releaseActionAllowed('review', state) && !contents.reviewers.includes(actor.id),
      return: isChecker && releaseActionAllowed('return', state),
      reject: isChecker && releaseActionAllowed('reject', state),
      approve: isChecker && releaseActionAllowed('approve', state),
      release: isChecker && releaseActionAllowed('release', state),
      download: mayDownload,
      comment: (isAuthor || isChecker) && !['RELEASED', 'REJECTED', 'WITHDRAWN'].includes(state),
    },
    next_step: nextStep(access, contents, actor),
    package: request.packageSha256 && request.packageSizeBytes !== null ? { sha256: request.packageSha256, size_bytes: request.packageSizeBytes } : null,
  };
}
