import { COHORT_STATUSES, COHORT_TAG_MAX_LENGTH, type CohortStatus } from '@hdp/contract/cohort-lifecycle';
import { DEFAULT_FILTER, DEFAULT_OFFSET, DEFAULT_PAGE, PAGE_SIZES } from '@/config/constants';
import type { CohortOrder, ListCohortsArgs } from '../api/list-cohorts';
import { normaliseTags } from '../cohort-form';
import { ORDER_LABELS } from '../labels';

type All = typeof DEFAULT_FILTER;

/** The filter of published cohorts whose newest version awaits a data steward's review. */
export const AWAITING_REVIEW = 'AWAITING_REVIEW';
type StatusFilter = CohortStatus | typeof AWAITING_REVIEW;
const STATUS_FILTERS: readonly string[] = [...COHORT_STATUSES, AWAITING_REVIEW];

/** Cards or a table. */
export type CohortView = 'cards' | 'table';

/** What the cohorts list shows. It lives in the address bar, so a filtered list can be shared and comes back after a visit to a cohort. */
export interface CohortListState {
  page: number;
  search: string;
  status: StatusFilter | All;
  tags: string[];
  orderBy: CohortOrder;
  view: CohortView;
}

/** The API's default order: the most recently updated first. */
export const DEFAULT_COHORT_ORDER: CohortOrder = '-updated_at';

export const INITIAL_COHORT_LIST_STATE: CohortListState = {
  page: Number(DEFAULT_PAGE),
  search: '',
  status: DEFAULT_FILTER,
  tags: [],
  orderBy: DEFAULT_COHORT_ORDER,
  view: 'cards',
};

/** The address bar's query, as Next.js gives it. */
export type UrlQuery = Record<string, string | string[] | undefined>;

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
const isOrder = (value: string | undefined): value is CohortOrder => value !== undefined && Object.hasOwn(ORDER_LABELS, value);

/**
 * The list's state from the address bar. Anything unknown or malformed falls back to the default,
 * so a hand-edited or outdated link still opens the list.
 */
export function parseCohortListQuery(query: UrlQuery): CohortListState {
  const page = Number(first(query.page));
  const status = first(query.status)?.toUpperCase();
  const order = first(query.sort);
  const rawTags = query.tag === undefined ? [] : Array.isArray(query.tag) ? query.tag : [query.tag];
  return {
    page: Number.isInteger(page) && page >= 1 ? page : INITIAL_COHORT_LIST_STATE.page,
    search: first(query.search)?.trim() ?? '',
    status: STATUS_FILTERS.includes(status ?? '') ? (status as StatusFilter) : DEFAULT_FILTER,
    tags: normaliseTags(rawTags).filter((tag) => tag.length <= COHORT_TAG_MAX_LENGTH),
    orderBy: isOrder(order) ? order : DEFAULT_COHORT_ORDER,
    view: first(query.view) === 'table' ? 'table' : 'cards',
  };
}

/** The address bar's query for a state; defaults are left out, so the plain list is just `/cohorts`. */
export function toCohortListQuery(state: CohortListState): Record<string, string | string[]> {
  const search = state.search.trim();
  return {
    ...(search ? { search } : {}),
    ...(state.status !== DEFAULT_FILTER ? { status: state.status.toLowerCase() } : {}),
    ...(state.tags.length > 0 ? { tag: state.tags } : {}),
    ...(state.orderBy !== DEFAULT_COHORT_ORDER ? { sort: state.orderBy } : {}),
    ...(state.view !== 'cards' ? { view: state.view } : {}),
    ...(state.page > 1 ? { page: String(state.page) } : {}),
  };
}

/** The list call for a state: skip/limit from the page, 'All' left out, tags repeated. */
export function toListCohortsArgs(state: CohortListState, pageSize: number = PAGE_SIZES.cohorts): ListCohortsArgs {
  const search = state.search.trim();
  return {
    skip: DEFAULT_OFFSET + (state.page - 1) * pageSize,
    limit: pageSize,
    order_by: state.orderBy,
    ...(search ? { search } : {}),
    ...(state.status !== DEFAULT_FILTER ? { status: state.status } : {}),
    ...(state.tags.length > 0 ? { tags: state.tags } : {}),
  };
}

/** "12 cohorts", or "10,000+ cohorts" when the API capped the count. */
export function describeTotal(total: number, capped: boolean): string {
  const count = total.toLocaleString('en-GB');
  return `${capped ? `${count}+` : count} ${total === 1 && !capped ? 'cohort' : 'cohorts'}`;
}
