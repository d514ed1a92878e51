import { z } from 'zod';
import { LIMITS } from '../limits';

/** A query parameter that may repeat (`roles=A&roles=B`); a single value becomes a one-item list. */
export function repeated<T extends z.ZodType>(item: T) {
  return z.preprocess((value) => (value === undefined || Array.isArray(value) ? value : [value]), z.array(item));
}

/** An id in a path. */
export const Id = z.uuid();

/** Paging, search and sort parameters shared by every list. */
export const ListQuery = z.object({
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(LIMITS.maxPageSize).default(LIMITS.defaultPageSize),
  search: z.string().trim().max(200).optional(),
  order_by: z.string().max(64).optional(),
});

/** Totals are counted exactly up to this many; beyond it a list says `total_capped: true`. */
export const LIST_TOTAL_CAP = 10_000;

/**
 * `{ <items>: [...], total: N, total_capped }`, the shape of every list answer. Counting every
 * match of a broad filter over millions of rows costs more than the page itself, so totals above
 * LIST_TOTAL_CAP are reported as the cap with `total_capped: true` ("10,000+").
 */
export function listOf<K extends string, T extends z.ZodType>(key: K, item: T) {
  return z.object({ [key]: z.array(item), total: z.number().int().min(0), total_capped: z.boolean() } as {
    [P in K]: z.ZodArray<T>;
  } & { total: z.ZodNumber; total_capped: z.ZodBoolean });
}

export const Timestamp = z.iso.datetime({ offset: true });
