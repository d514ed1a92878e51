import { z } from 'zod';
import {
  CHECK_STATES,
  CHECK_VERDICTS,
  COMMENT_VISIBILITIES,
  OUTPUT_LIMITS,
  RELEASE_FILE_KINDS,
  RELEASE_REQUEST_STATES,
  REVIEW_VOTES,
} from '../output-lifecycle';
import { listOf, ListQuery, Timestamp } from './common';

const Person = z.object({ id: z.uuid(), email: z.string(), name: z.string() });
const text = (min: number, max: number) => z.string().trim().min(min).max(max);

/** releaseRequestCreate: a title; groups and files come after. */
export const ReleaseRequestCreate = z.object({ title: text(1, OUTPUT_LIMITS.titleMaxLength) }).meta({ id: 'ReleaseRequestCreate' });
export type ReleaseRequestCreate = z.infer<typeof ReleaseRequestCreate>;

/** A group of files with what they are (context) and what was done to make them safe (controls). */
export const ReleaseGroupInput = z
  .object({
    name: text(1, OUTPUT_LIMITS.groupNameMaxLength),
    context: text(OUTPUT_LIMITS.contextMinLength, OUTPUT_LIMITS.textMaxLength),
    controls: text(OUTPUT_LIMITS.contextMinLength, OUTPUT_LIMITS.textMaxLength),
  })
  .meta({ id: 'ReleaseGroupInput' });
export type ReleaseGroupInput = z.infer<typeof ReleaseGroupInput>;

/**
 * releaseFileAdd: a file of one of the caller's own notebooks' homes, copied into the request now.
 * The same path added again to the same group is a new version of that file (its votes are reset).
 * `magnitude_column`: the column of a table that holds a magnitude (a sum of contributions), for the
 * dominance checks; a header ending in ` [magnitude]` declares it too.
 */
export const ReleaseFileAdd = z
  .object({
    notebook_id: z.uuid(),
    path: text(1, OUTPUT_LIMITS.pathMaxLength),
    group_id: z.uuid(),
    kind: z.enum(RELEASE_FILE_KINDS).default('OUTPUT'),
    magnitude_column: text(1, 200).nullish(),
  })
  .meta({ id: 'ReleaseFileAdd' });
export type ReleaseFileAdd = z.infer<typeof ReleaseFileAdd>;

/** One reason of the automatic checks, with the cells it concerns (row 1 is the first data row). */
export const CheckFinding = z.object({
  check: z.string(),
  verdict: z.enum(CHECK_VERDICTS),
  message: z.string(),
  cells: z.array(z.object({ row: z.number().int(), column: z.string() })),
});
export type CheckFinding = z.infer<typeof CheckFinding>;

export const FileChecks = z.object({
  state: z.enum(CHECK_STATES),
  verdict: z.enum(CHECK_VERDICTS).nullable(),
  findings: z.array(CheckFinding),
  /** The parameters the checks ran with and the checks' version, kept with the result. */
  parameters: z.looseObject({}),
  checks_version: z.string().nullable(),
  finished_at: Timestamp.nullable(),
  error: z.string().nullable(),
});
export type FileChecks = z.infer<typeof FileChecks>;

/** A checker's vote on a file; other checkers' votes are hidden until enough reviews are in. */
export const FileVote = z.object({ reviewer: Person, vote: z.enum(REVIEW_VOTES), comment: z.string().nullable(), submitted: z.boolean() });

export const ReleaseFile = z.object({
  id: z.uuid(),
  group_id: z.uuid(),
  name: z.string(),
  source: z.object({ notebook_id: z.uuid().nullable(), path: z.string() }),
  kind: z.enum(RELEASE_FILE_KINDS),
  content_type: z.string(),
  size_bytes: z.number().int(),
  sha256: z.string(),
  version: z.number().int(),
  magnitude_column: z.string().nullable(),
  added_at: Timestamp,
  checks: FileChecks,
  votes: z.array(FileVote),
});
export type ReleaseFile = z.infer<typeof ReleaseFile>;

export const ReleaseGroup = z.object({ id: z.uuid(), name: z.string(), context: z.string(), controls: z.string(), files: z.array(ReleaseFile) });
export type ReleaseGroup = z.infer<typeof ReleaseGroup>;

export const ReleaseComment = z.object({
  id: z.uuid(),
  author: Person,
  visibility: z.enum(COMMENT_VISIBILITIES),
  file_id: z.uuid().nullable(),
  body: z.string(),
  created_at: Timestamp,
});

const RELEASE_ABILITIES = ['edit', 'submit', 'withdraw', 'review', 'return', 'reject', 'approve', 'release', 'download', 'comment'] as const;

export const ReleaseRequestSummary = z.object({
  id: z.uuid(),
  workbench_id: z.uuid(),
  workbench_name: z.string(),
  title: z.string(),
  state: z.enum(RELEASE_REQUEST_STATES),
  author: Person,
  required_reviews: z.number().int(),
  /** Complete reviews in, this round. */
  reviews_in: z.number().int(),
  file_count: z.number().int(),
  created_at: Timestamp,
  updated_at: Timestamp,
  submitted_at: Timestamp.nullable(),
});
export type ReleaseRequestSummary = z.infer<typeof ReleaseRequestSummary>;

export const ReleaseRequest = ReleaseRequestSummary.extend({
  round: z.number().int(),
  released_at: Timestamp.nullable(),
  groups: z.array(ReleaseGroup),
  comments: z.array(ReleaseComment),
  /** Whether the caller's own review of this round is submitted (null: the caller is not a checker of it). */
  my_review_submitted: z.boolean().nullable(),
  /** Whether the checkers' votes are shown to one another (enough reviews are in). */
  votes_unblinded: z.boolean(),
  /** What the caller may do now, and for each thing they may not, why (for the buttons' reasons). */
  abilities: z.object(Object.fromEntries(RELEASE_ABILITIES.map((a) => [a, z.boolean()])) as Record<(typeof RELEASE_ABILITIES)[number], z.ZodBoolean>),
  /** What happens next, in words, for the caller. */
  next_step: z.string(),
  package: z.object({ sha256: z.string(), size_bytes: z.number().int() }).nullable(),
}).meta({ id: 'ReleaseRequest' });
export type ReleaseRequest = z.infer<typeof ReleaseRequest>;

export const ReleaseRequestListQuery = ListQuery.pick({ skip: true, limit: true });
export const ReleaseRequestList = listOf('requests', ReleaseRequestSummary).meta({ id: 'ReleaseRequestList' });
export type ReleaseRequestList = z.infer<typeof ReleaseRequestList>;

/** A file of the caller's notebooks' homes that a request could take, or why it cannot. */
export const OutputCandidate = z.object({
  notebook_id: z.uuid(),
  notebook_name: z.string(),
  path: z.string(),
  size_bytes: z.number().int(),
  modified_at: Timestamp,
  refusal: z.string().nullable(),
});
export const OutputCandidateList = z.object({ files: z.array(OutputCandidate), truncated: z.boolean() }).meta({ id: 'OutputCandidateList' });
export type OutputCandidateList = z.infer<typeof OutputCandidateList>;

/** What the request page shows of a file: a table's first rows, a text, or nothing (an image is fetched as content). */
export const ReleaseFilePreview = z
  .object({
    kind: z.enum(['table', 'text', 'image', 'none']),
    header: z.array(z.string()),
    rows: z.array(z.array(z.string())),
    text: z.string().nullable(),
    truncated: z.boolean(),
  })
  .meta({ id: 'ReleaseFilePreview' });
export type ReleaseFilePreview = z.infer<typeof ReleaseFilePreview>;

export const ReleaseVoteInput = z
  .object({ vote: z.enum(REVIEW_VOTES), comment: text(1, OUTPUT_LIMITS.commentMaxLength).nullish() })
  .meta({ id: 'ReleaseVoteInput' });
export type ReleaseVoteInput = z.infer<typeof ReleaseVoteInput>;

export const ReleaseCommentInput = z
  .object({ body: text(1, OUTPUT_LIMITS.commentMaxLength), visibility: z.enum(COMMENT_VISIBILITIES).default('PUBLIC'), file_id: z.uuid().nullish() })
  .meta({ id: 'ReleaseCommentInput' });
export type ReleaseCommentInput = z.infer<typeof ReleaseCommentInput>;

/** Return and reject say why, to the author. */
export const ReleaseDecisionInput = z.object({ comment: text(1, OUTPUT_LIMITS.commentMaxLength).nullish() }).meta({ id: 'ReleaseDecisionInput' });
export type ReleaseDecisionInput = z.infer<typeof ReleaseDecisionInput>;
