import { z } from 'zod';
import { LIMITS } from '../limits';
import { Timestamp } from './common';
import { Attrition, CohortDefinitionExpression, type CohortDefinitionInput } from './cohort-definition';
import { ConceptSetUpdateNotice } from './concept-sets';

/** How the query builder edits a field's value. */
export const VALUE_EDITOR_TYPES = ['text', 'number', 'date', 'concept', 'select'] as const;
export const ValueEditorType = z.enum(VALUE_EDITOR_TYPES);

/** The operators a rule may use (react-querybuilder's names). */
export const QUERY_OPERATORS = [
  '=', '!=', '<', '<=', '>', '>=', 'in', 'notIn', 'between', 'notBetween', 'null', 'notNull', 'contains', 'beginsWith',
] as const;
export const QueryOperator = z.enum(QUERY_OPERATORS);
export type QueryOperator = z.infer<typeof QueryOperator>;

export const FieldOption = z.object({ value: z.union([z.number(), z.string()]), label: z.string() });

export const ExplorerField = z
  .object({
    /** Qualified name used in rules: `<table>.<field>`, e.g. `measurement.value_as_number`. */
    name: z.string(),
    label: z.string(),
    type: z.enum(['concept', 'number', 'date', 'text', 'count']),
    operators: z.array(z.object({ name: QueryOperator, label: z.string() })),
    valueEditor: z.object({
      type: ValueEditorType,
      /** For a concept picker: the OMOP domain to search in (`GET /data-explorer/concepts/?domain=`). */
      domain: z.string().optional(),
      /** For a fixed list. */
      values: z.array(FieldOption).optional(),
    }),
    /** Concept rules include descendant concepts (concept_ancestor) unless the rule says `includeDescendants: false`. */
    includesDescendants: z.boolean().optional(),
    description: z.string().optional(),
  })
  .meta({ id: 'ExplorerField' });
export type ExplorerField = z.infer<typeof ExplorerField>;

export const ExplorerTable = z
  .object({
    name: z.string(),
    label: z.string(),
    /** `person` filters persons directly; `event` tables are used through groups scoped with `table`. */
    kind: z.enum(['person', 'event']),
    fields: z.array(ExplorerField),
  })
  .meta({ id: 'ExplorerTable' });
export type ExplorerTable = z.infer<typeof ExplorerTable>;

export const DataExplorerSchema = z
  .object({ tableSchema: z.array(ExplorerTable), warehouse: z.object({ loaded: z.boolean(), source: z.string().nullable() }) })
  .meta({ id: 'DataExplorerSchema' });
export type DataExplorerSchema = z.infer<typeof DataExplorerSchema>;

/**
 * One clinical domain of the dataset: how many records it holds. A count from 1 to below the
 * suppression threshold is withheld (`records` null, `records_display` "< 20").
 */
export const DatasetDomain = z
  .object({
    domain: z.string(),
    label: z.string(),
    table: z.string(),
    records: z.number().int().nullable(),
    records_display: z.string(),
  })
  .meta({ id: 'DatasetDomain' });
export type DatasetDomain = z.infer<typeof DatasetDomain>;

/**
 * The dataset the data explorer counts in. The person count is released exactly as a query with no
 * criteria releases it (perturbed, hidden below the threshold); `loaded` false means no data yet.
 */
export const Dataset = z
  .object({
    loaded: z.boolean(),
    source: z.string().nullable(),
    loaded_at: Timestamp.nullable(),
    cdm_version: z.string(),
    person_count: z.number().int().nullable(),
    person_count_display: z.string(),
    suppression_threshold: z.number().int(),
    perturbed: z.boolean(),
    domains: z.array(DatasetDomain),
  })
  .meta({ id: 'Dataset' });
export type Dataset = z.infer<typeof Dataset>;

export const ConceptSearchQuery = z.object({
  search: z.string().trim().max(200).optional(),
  domain: z.string().max(40).optional(),
  /**
   * Concepts by id, comma-separated (at most a page of them): the names of the concepts a saved
   * definition refers to by id only. All of them are answered, whatever `limit` says.
   */
  ids: z
    .string()
    .regex(new RegExp(`^\\d{1,12}(,\\d{1,12}){0,${LIMITS.maxPageSize - 1}}$`), `ids must be up to ${LIMITS.maxPageSize} concept ids separated by commas, such as 8507,8532`)
    .optional(),
  limit: z.coerce.number().int().min(1).max(LIMITS.maxPageSize).default(20),
});

/** A unit of measure (a UCUM concept): `code` is what is shown beside a value ("%", "mg/dL"). */
export const ConceptUnit = z
  .object({ concept_id: z.number().int(), code: z.string(), name: z.string() })
  .meta({ id: 'ConceptUnit' });
export type ConceptUnit = z.infer<typeof ConceptUnit>;

export const Concept = z
  .object({
    concept_id: z.number().int(),
    concept_name: z.string(),
    domain_id: z.string(),
    vocabulary_id: z.string(),
    concept_code: z.string(),
    standard_concept: z.string().nullable(),
    /**
     * A measurement concept's units as the data record them (`measurement.unit_concept_id`), most
     * used first; empty for other concepts or when no record names a unit.
     */
    units: z.array(ConceptUnit).optional(),
  })
  .meta({ id: 'Concept' });
export type Concept = z.infer<typeof Concept>;
export const ConceptList = z.object({ concepts: z.array(Concept) });

/** A rule of the query tree (react-querybuilder format; extra properties such as `id` are kept). */
export const QueryRule = z.looseObject({
  id: z.string().max(100).optional(),
  field: z.string().max(100),
  operator: z.string().max(32),
  value: z.unknown().optional(),
  /** Concept rules only: false to match the listed concepts alone, not their descendants. */
  includeDescendants: z.boolean().optional(),
}).meta({ id: 'QueryRule' });
export type QueryRule = z.infer<typeof QueryRule>;

export interface QueryGroup {
  id?: string;
  combinator?: 'and' | 'or';
  not?: boolean;
  /** Scopes the group to an event table: "has at least one record matching all the rules on the same record". */
  table?: string;
  rules: (QueryRule | QueryGroup)[];
  /**
   * At the root only: a cohort definition with time in it (entry events, inclusion rules, exit).
   * The persons are then those of the definition's cohort who also match `rules`; without it the
   * tree means what it always has.
   */
  cohortDefinition?: CohortDefinitionInput;
  [key: string]: unknown;
}

/** The query tree: `{ combinator, not?, table?, rules: [rule | group] }`; the default combinator is 'and'. */
export const QueryGroup: z.ZodType<QueryGroup> = z.lazy(() =>
  z.looseObject({
    id: z.string().max(100).optional(),
    combinator: z.string().toLowerCase().pipe(z.enum(['and', 'or'])).optional(),
    not: z.boolean().optional(),
    table: z.string().max(64).optional(),
    rules: z.array(z.union([QueryGroup, QueryRule])).max(LIMITS.queryMaxRules),
    cohortDefinition: CohortDefinitionExpression.optional(),
  }),
  // An id of its own: a recursive schema can only be referred to by name in the OpenAPI document.
).meta({ id: 'QueryGroup' }) as z.ZodType<QueryGroup>;

export const EMPTY_QUERY: QueryGroup = { combinator: 'and', rules: [] };

/**
 * One cell of a breakdown: the count (perturbed when the result says `perturbed`), or null when
 * suppressed; `display` is what to show. Every hidden cell shows the same label, whether its count
 * is small or it was hidden so that a small count cannot be worked out from the others.
 */
export const ResultCell = z.object({
  key: z.string(),
  label: z.string(),
  count: z.number().int().nullable(),
  display: z.string(),
  suppressed: z.boolean(),
});
export type ResultCell = z.infer<typeof ResultCell>;

export const QueryResult = z
  .object({
    person_count: z.number().int().nullable(),
    person_count_display: z.string(),
    suppression_threshold: z.number().int(),
    /** Counts carry a small consistent perturbation (the same persons always get the same count). */
    perturbed: z.boolean(),
    breakdowns: z.object({
      sex: z.array(ResultCell),
      age_band: z.array(ResultCell),
      race: z.array(ResultCell),
      ethnicity: z.array(ResultCell),
      /** The age pyramid: one row per sex, one cell per age band. */
      sex_by_age_band: z.array(z.object({ key: z.string(), label: z.string(), cells: z.array(ResultCell) })),
    }),
    execution_time_ms: z.number(),
    /** The dataset the persons were counted in (its source, as loaded into the warehouse); absent on results kept from before it was recorded. */
    dataset: z.string().optional(),
    /** Why every count is hidden, when the answer was withheld because its persons differ from an earlier answer's by fewer than the threshold. */
    withheld: z.string().optional(),
    /**
     * Why some cells show `withheld`: their persons differ from those of an earlier answer (or of one
     * of its cells) by fewer than the threshold; other cells may be hidden with them so that the
     * person count less the shown cells does not give them back.
     */
    withheld_cells: z.string().optional(),
    /** Queries with a cohort definition: the count after each step, and the inclusion-rule report. */
    attrition: Attrition.optional(),
  })
  .meta({ id: 'QueryResult' });
export type QueryResult = z.infer<typeof QueryResult>;

export const QueryCreate = z
  .object({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).default(''),
    query: QueryGroup,
  })
  .meta({ id: 'QueryCreate' });
export const QueryUpdate = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(2000).optional(),
    query: QueryGroup.optional(),
  })
  .meta({ id: 'QueryUpdate' });
export const AnonymousQueryExecutionCreate = z.object({ query: QueryGroup }).meta({ id: 'AnonymousQueryExecutionCreate' });

export const SavedQuery = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string(),
    query: QueryGroup,
    version: z.number().int(),
    created_by: z.uuid(),
    created_by_email: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    /** Saved concept sets the definition pins at an older version than their newest (absent: none). */
    concept_set_updates: z.array(ConceptSetUpdateNotice).optional(),
  })
  .meta({ id: 'Query' });
export type SavedQuery = z.infer<typeof SavedQuery>;

export const QUERY_ORDERS = ['name', '-name', 'created_at', '-created_at', 'updated_at', '-updated_at'] as const;

export const QUERY_EXECUTION_STATUSES = ['PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED'] as const;
export const QueryExecutionStatus = z.enum(QUERY_EXECUTION_STATUSES);
export type QueryExecutionStatus = z.infer<typeof QueryExecutionStatus>;

export const QueryExecution = z
  .object({
    id: z.uuid(),
    query_id: z.uuid().nullable(),
    query_version: z.number().int().nullable(),
    status: QueryExecutionStatus,
    result: QueryResult.nullable(),
    error: z.string().nullable(),
    requested_by: z.uuid(),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
  })
  .meta({ id: 'QueryExecution' });
export type QueryExecution = z.infer<typeof QueryExecution>;

export { QUERY_NOT_EXECUTED } from '../query-details';
