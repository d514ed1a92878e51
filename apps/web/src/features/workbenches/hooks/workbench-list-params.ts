import { DEFAULT_OFFSET, DEFAULT_PAGE, PAGE_SIZES } from '@/config/constants';
import type { ListWorkbenchesArgs } from '../api/list-workbenches';

/** Cards or a table. */
export type WorkbenchView = 'cards' | 'table';

/** What the workbenches list shows. It lives in the address bar, so it survives a visit to a workbench and can be shared. */
export interface WorkbenchListState {
  page: number;
  search: string;
  view: WorkbenchView;
}

export const INITIAL_WORKBENCH_LIST_STATE: WorkbenchListState = { page: Number(DEFAULT_PAGE), search: '', view: 'cards' };

/** The address bar's query, as Next.js gives it. */
export type UrlQuery = Record<string, string | string[] | undefined>;

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** The list's state from the address bar; anything malformed reads as the default. */
export function parseWorkbenchListQuery(query: UrlQuery): WorkbenchListState {
  const page = Number(first(query.page));
  return {
    page: Number.isInteger(page) && page >= 1 ? page : INITIAL_WORKBENCH_LIST_STATE.page,
    search: first(query.search)?.trim().slice(0, 200) ?? '',
    view: first(query.view) === 'table' ? 'table' : 'cards',
  };
}

/** The address bar's query for a state; defaults are left out, so the plain list is just `/workbenches`. */
export function toWorkbenchListQuery(state: WorkbenchListState): Record<string, string> {
  const search = state.search.trim();
  return {
    ...(search ? { search } : {}),
    ...(state.view !== 'cards' ? { view: state.view } : {}),
    ...(state.page > 1 ? { page: String(state.page) } : {}),
  };
}

/** The list call for a state: skip/limit from the page (10 a page), the search trimmed. */
export function toListWorkbenchesArgs(state: WorkbenchListState, pageSize: number = PAGE_SIZES.workbenches): ListWorkbenchesArgs {
  const search = state.search.trim();
  return { skip: DEFAULT_OFFSET + (state.page - 1) * pageSize, limit: pageSize, ...(search ? { search } : {}) };
}

/** "3 workbenches", or "10,000+ workbenches" when the API capped the count. */
export function describeWorkbenchTotal(total: number, capped: boolean): string {
  const count = total.toLocaleString('en-GB');
  return `${capped ? `${count}+` : count} ${total === 1 && !capped ? 'workbench' : 'workbenches'}`;
}
