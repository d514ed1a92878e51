import { z } from 'zod';
import { Timestamp } from './common';
import { COHORT_DEFINITION_LIMITS, ConceptSetItem } from './cohort-definition';

/**
 * Saved concept sets: named lists of concepts kept apart from any one query, so that many queries'
 * cohort definitions use the same list (ATLAS's concept set repository). Every change makes a new
 * version and keeps the old ones; a definition pins the version it used
 * (`conceptSets[].savedConceptSet: { id, version }`), and the saved query says when a newer one exists.
 */

const Items = z.array(ConceptSetItem).max(COHORT_DEFINITION_LIMITS.conceptSetItems);

export const ConceptSetCreate = z
  .object({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).default(''),
    items: Items,
  })
  .meta({ id: 'ConceptSetCreate' });

export const ConceptSetUpdate = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(2000).optional(),
    items: Items.optional(),
  })
  .refine((update) => Object.values(update).some((value) => value !== undefined), { message: 'give at least one of name, description or items' })
  .meta({ id: 'ConceptSetUpdate' });

/** One version of a saved concept set, as its history lists it. */
export const ConceptSetVersionSummary = z.object({
  version: z.number().int(),
  name: z.string(),
  item_count: z.number().int(),
  created_by: z.uuid(),
  created_at: Timestamp,
});

export const SavedConceptSet = z
  .object({
    id: z.uuid(),
    /** Name, description and items of `version` (the newest, unless a version was asked for). */
    name: z.string(),
    description: z.string(),
    items: z.array(ConceptSetItem),
    version: z.number().int(),
    latest_version: z.number().int(),
    /**
     * How many concepts the items stand for in the dataset now served (descendants added, exclusions
     * removed, mapped concepts added); null while no dataset is loaded, and in lists.
     */
    resolved_concept_count: z.number().int().nullable(),
    /** Saved queries whose definitions pin a version of it; it cannot be deleted while any does. */
    used_by_queries: z.number().int(),
    created_by: z.uuid(),
    created_by_email: z.string().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
    /** Every version, newest first (one read only; empty in lists). */
    versions: z.array(ConceptSetVersionSummary),
  })
  .meta({ id: 'ConceptSet' });
export type SavedConceptSet = z.infer<typeof SavedConceptSet>;

export const CONCEPT_SET_ORDERS = ['name', '-name', 'created_at', '-created_at', 'updated_at', '-updated_at'] as const;

export const ConceptSetVersionQuery = z.object({
  /** A version to read; the newest when absent. */
  version: z.coerce.number().int().min(1).optional(),
});

/** A saved concept set a query pins at an older version than its newest. */
export const ConceptSetUpdateNotice = z.object({
  concept_set_id: z.uuid(),
  name: z.string(),
  pinned_version: z.number().int(),
  latest_version: z.number().int(),
});
export type ConceptSetUpdateNotice = z.infer<typeof ConceptSetUpdateNotice>;
