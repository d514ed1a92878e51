import { z } from 'zod';
import { COHORT_MAX_TAGS, COHORT_STATUSES, COHORT_TAG_MAX_LENGTH } from '../cohort-lifecycle';

export {
  COHORT_MAX_TAGS,
  COHORT_STATUSES,
  COHORT_TAG_MAX_LENGTH,
  COHORT_TRANSITIONS,
  cohortTransition,
  type CohortTransition,
} from '../cohort-lifecycle';
import { ListQuery, listOf, repeated, Timestamp } from './common';
import { QueryGroup, QueryResult } from './data-explorer';

export const CohortStatus = z.enum(COHORT_STATUSES);
export type CohortStatus = z.infer<typeof CohortStatus>;

/** Tags are trimmed, lower-cased and de-duplicated, so `Diabetes ` and `diabetes` are one tag. */
const Tags = z
  .array(z.string().trim().toLowerCase().min(1).max(COHORT_TAG_MAX_LENGTH))
  .max(COHORT_MAX_TAGS)
  .transform((tags) => [...new Set(tags)]);

const Person = z.object({ id: z.uuid(), email: z.string().nullable() });

/** The saved query a cohort came from; null once that query has been deleted. */
export const CohortSourceQuery = z.object({ id: z.uuid(), name: z.string(), version: z.number().int(), created_by: z.uuid() });

export const Cohort = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
    status: CohortStatus,
    /**
     * The current version as the caller sees it: the newest for its author and data stewards (1 when
     * created, one more at each re-run); the published one for everyone else.
     */
    version: z.number().int(),
    /**
     * The version a data steward reviewed and published, which researchers see; null while never
     * published. A newer `version` than this one awaits a steward's review.
     */
    published_version: z.number().int().nullable(),
    /** The persons in the current version, or null when below the suppression threshold (it can then not be published). */
    person_count: z.number().int().nullable(),
    person_count_display: z.string(),
    /**
     * The persons of the published version, whoever asks (the count a workbench releases), and
     * whether that version can be released now: false once the data it was taken from are no longer
     * served (the warehouse was reloaded; a data steward re-runs the cohort and publishes the new
     * version). All three are null while no version is published.
     */
    published_person_count: z.number().int().nullable(),
    published_person_count_display: z.string().nullable(),
    published_on_current_data: z.boolean().nullable(),
    source_query: CohortSourceQuery.nullable(),
    author: Person,
    created_at: Timestamp,
    updated_at: Timestamp,
    published_at: Timestamp.nullable(),
    published_by: Person.nullable(),
  })
  .meta({ id: 'Cohort' });
export type Cohort = z.infer<typeof Cohort>;

/** One line of a definition in plain language; `depth` nests a group's rules under its heading. */
export const CriteriaLine = z.object({ depth: z.number().int().min(0), text: z.string() });
export type CriteriaLine = z.infer<typeof CriteriaLine>;

/** The criteria a version's persons were selected by: the query tree and the same in plain language. */
export const CohortDefinition = z
  .object({ query: QueryGroup, summary: z.array(CriteriaLine) })
  .meta({ id: 'CohortDefinition' });
export type CohortDefinition = z.infer<typeof CohortDefinition>;

/** One snapshot of a cohort's persons. */
export const CohortVersion = z
  .object({
    version: z.number().int(),
    /** How the version came about: made from an execution, or refreshed by running the query again. */
    origin: z.enum(['EXECUTION', 'REFRESH']),
    query_version: z.number().int(),
    execution_id: z.uuid().nullable(),
    person_count: z.number().int().nullable(),
    person_count_display: z.string(),
    /** The dataset the persons were taken from (its source, as loaded into the warehouse). */
    dataset: z.string(),
    /**
     * The criteria of this version (as the run that made it used them): of every version for its
     * author and data stewards, of the published version for everyone who may see the cohort (they
     * may release it); null otherwise, or when it was not recorded (versions made before it was kept).
     */
    definition: CohortDefinition.nullable(),
    created_by: Person,
    created_at: Timestamp,
  })
  .meta({ id: 'CohortVersion' });
export type CohortVersion = z.infer<typeof CohortVersion>;

/** A cohort with its version history (newest first) and the demographics of its current version. */
export const CohortDetail = Cohort.extend({ versions: z.array(CohortVersion), result: QueryResult }).meta({ id: 'CohortDetail' });
export type CohortDetail = z.infer<typeof CohortDetail>;

export const CohortCreate = z
  .object({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).default(''),
    tags: Tags.default([]),
    /** A successful execution of a saved query: its persons become the cohort. */
    executionId: z.uuid(),
  })
  .meta({ id: 'CohortCreate' });

export const CohortUpdate = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(2000).optional(),
    tags: Tags.optional(),
    /** A new status: only a DATA_STEWARD or ADMIN may change it. */
    status: CohortStatus.optional(),
    /**
     * The version a DATA_STEWARD or ADMIN reviewed and publishes (with `status: PUBLISHED` for a
     * draft, or alone for a newer version of a published cohort). It must be the newest version:
     * 409 otherwise. Publishing a draft without it publishes its newest version.
     */
    published_version: z.number().int().min(1).optional(),
  })
  .refine((update) => Object.values(update).some((value) => value !== undefined), { message: 'give at least one of name, description, tags, status or published_version' })
  .meta({ id: 'CohortUpdate' });
export type CohortUpdate = z.infer<typeof CohortUpdate>;

export const COHORT_ORDERS = ['name', '-name', 'created_at', '-created_at', 'updated_at', '-updated_at', 'person_count', '-person_count'] as const;

export const CohortListQuery = ListQuery.extend({
  /**
   * One status, `All` (the default), or `AWAITING_REVIEW`: published cohorts with a newer version
   * that awaits a data steward's review (what a steward has to look at; for anyone else, their own).
   */
  status: z.enum(['All', ...COHORT_STATUSES, 'AWAITING_REVIEW']).default('All'),
  /** Cohorts carrying every one of these tags. */
  tags: repeated(z.string().trim().toLowerCase().min(1).max(COHORT_TAG_MAX_LENGTH)).optional(),
  order_by: z.enum(COHORT_ORDERS).default('-updated_at'),
});

/** The list, with every tag in use on the cohorts the caller may see (for the tag filter). */
export const CohortList = listOf('cohorts', Cohort).extend({ total_tags: z.array(z.string()) }).meta({ id: 'CohortList' });
export type CohortList = z.infer<typeof CohortList>;
