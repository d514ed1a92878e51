/**
 * The airlock's rules without zod: the web app's browser bundle imports this entry
 * (`@hdp/contract/output-lifecycle`) for the state tags, the actions to offer and the file limits.
 */

/**
 * Where a release request is. PENDING (the author builds it) → SUBMITTED → PARTIALLY_REVIEWED (some
 * reviews in) → REVIEWED (enough independent reviews in) → APPROVED → RELEASED; RETURNED goes back
 * to the author, REJECTED and WITHDRAWN end it.
 */
export const RELEASE_REQUEST_STATES = ['PENDING', 'SUBMITTED', 'PARTIALLY_REVIEWED', 'REVIEWED', 'APPROVED', 'RELEASED', 'RETURNED', 'REJECTED', 'WITHDRAWN'] as const;
export type ReleaseRequestState = (typeof RELEASE_REQUEST_STATES)[number];

/** What the author (`author`) or an output checker (`reviewer`) asks of a request. */
export type ReleaseRequestAction = 'edit' | 'submit' | 'withdraw' | 'review' | 'return' | 'reject' | 'approve' | 'release';

/**
 * The states each action is accepted from, who takes it, and the state it moves the request to.
 * Anything else is refused with 409. `edit` (groups, files) moves nothing; a submitted review moves
 * the request to PARTIALLY_REVIEWED or REVIEWED by how many complete reviews are in (`to` is the
 * first of the two). Submitting a RETURNED request is a resubmission.
 */
export const RELEASE_REQUEST_TRANSITIONS: Readonly<
  Record<ReleaseRequestAction, { from: readonly ReleaseRequestState[]; to: ReleaseRequestState | null; by: 'author' | 'reviewer' }>
> = {
  edit: { from: ['PENDING', 'RETURNED'], to: null, by: 'author' },
  submit: { from: ['PENDING', 'RETURNED'], to: 'SUBMITTED', by: 'author' },
  withdraw: { from: ['PENDING', 'SUBMITTED', 'PARTIALLY_REVIEWED', 'REVIEWED', 'RETURNED'], to: 'WITHDRAWN', by: 'author' },
  review: { from: ['SUBMITTED', 'PARTIALLY_REVIEWED'], to: 'PARTIALLY_REVIEWED', by: 'reviewer' },
  return: { from: ['REVIEWED'], to: 'RETURNED', by: 'reviewer' },
  reject: { from: ['REVIEWED'], to: 'REJECTED', by: 'reviewer' },
  approve: { from: ['REVIEWED'], to: 'APPROVED', by: 'reviewer' },
  release: { from: ['APPROVED'], to: 'RELEASED', by: 'reviewer' },
};

/** Whether `action` is accepted while the request is in `state`. */
export function releaseActionAllowed(action: ReleaseRequestAction, state: ReleaseRequestState): boolean {
  return RELEASE_REQUEST_TRANSITIONS[action].from.includes(state);
}

/** States a reviewer's queue shows: the request waits for reviews or for a decision. */
export const RELEASE_REVIEW_STATES: readonly ReleaseRequestState[] = ['SUBMITTED', 'PARTIALLY_REVIEWED', 'REVIEWED', 'APPROVED'];

/** States that end a request: nothing more happens to it. */
export const RELEASE_FINAL_STATES: readonly ReleaseRequestState[] = ['RELEASED', 'REJECTED', 'WITHDRAWN'];

/** An output file is to be released; a supporting file is seen by the checkers only, never released. */
export const RELEASE_FILE_KINDS = ['OUTPUT', 'SUPPORTING'] as const;
export type ReleaseFileKind = (typeof RELEASE_FILE_KINDS)[number];

/** The automatic checks' label of a file (ACRO's): pass, fail, or a person must look (review). */
export const CHECK_VERDICTS = ['PASS', 'FAIL', 'REVIEW'] as const;
export type CheckVerdict = (typeof CHECK_VERDICTS)[number];

/** Where a file's automatic checks are: queued (PENDING), labelled (DONE), or could not run (ERROR). */
export const CHECK_STATES = ['PENDING', 'DONE', 'ERROR'] as const;
export type CheckState = (typeof CHECK_STATES)[number];

/** A checker's vote on one output file. */
export const REVIEW_VOTES = ['APPROVE', 'CHANGES'] as const;
export type ReviewVote = (typeof REVIEW_VOTES)[number];

/** A comment private to the checkers, or public (the author sees it). */
export const COMMENT_VISIBILITIES = ['PRIVATE', 'PUBLIC'] as const;
export type CommentVisibility = (typeof COMMENT_VISIBILITIES)[number];

/** The kinds of files a request may hold, by name ending (the server's OUTPUT_FILE_TYPES may narrow them). */
export const OUTPUT_FILE_TYPES: Readonly<Record<string, { contentType: string; table?: 'csv' | 'tsv'; image?: true }>> = {
  '.csv': { contentType: 'text/csv', table: 'csv' },
  '.tsv': { contentType: 'text/tab-separated-values', table: 'tsv' },
  '.png': { contentType: 'image/png', image: true },
  '.jpg': { contentType: 'image/jpeg', image: true },
  '.jpeg': { contentType: 'image/jpeg', image: true },
  '.svg': { contentType: 'image/svg+xml', image: true },
  '.txt': { contentType: 'text/plain; charset=utf-8' },
  '.md': { contentType: 'text/markdown; charset=utf-8' },
  '.json': { contentType: 'application/json' },
  '.pdf': { contentType: 'application/pdf' },
};

/** The airlock's limits; sizes and counts are defaults the server's configuration may change. */
export const OUTPUT_LIMITS = {
  titleMaxLength: 200,
  groupNameMaxLength: 100,
  /** Context and controls: what the output is and what was done to make it safe, in a few sentences at least. */
  contextMinLength: 10,
  textMaxLength: 5000,
  commentMaxLength: 5000,
  pathMaxLength: 1000,
  maxGroups: 20,
  maxFiles: 50,
  defaultMaxFileBytes: 5_000_000,
  /** Tables with more rows than this are labelled row-level data (configurable). */
  defaultMaxTableRows: 5_000,
  /** Rows of a table the request page shows (the whole file stays in the airlock). */
  previewRows: 200,
  defaultRequiredReviews: 2,
  /** ACRO's defaults for magnitude tables. */
  defaultDominanceP: 0.1,
  defaultDominanceN: 2,
  defaultDominanceK: 0.9,
} as const;
