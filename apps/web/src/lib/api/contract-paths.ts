import type { ROUTES, RouteId } from '@hdp/contract';

/**
 * A route's path, checked against the contract at compile time. The browser bundle refers to
 * paths this way because importing ROUTES would ship every zod schema of the contract with it.
 */
export function contractPath<R extends RouteId>(_route: R, path: (typeof ROUTES)[R]['path']): (typeof ROUTES)[R]['path'] {
  return path;
}
