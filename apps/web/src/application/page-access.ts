import type { NextPage } from 'next';
import type { Permission } from '@hdp/contract';
import type { PageQueries } from '@/lib/api/server-queries';

/**
 * Who may open a page: `public` pages render without a session (sign-out, errors); `shell-if-signed-in`
 * pages (not found, server error) render for anyone, inside the shell when there is a session; every
 * other page needs a session, and a page with a permission also needs the role the matrix names.
 */
export type PageAccess = 'public' | 'shell-if-signed-in' | { permission?: Permission };

export type AppPage<P = object> = NextPage<P> & {
  access?: PageAccess;
  /**
   * A public page whose content depends on whether someone is signed in (sign-out) is rendered on
   * the server with the session, so its first HTML is already the right content. (Pages that are
   * not public always are, with the user too.)
   */
  sessionOnServer?: boolean;
  /**
   * The queries whose answers the page shows first (a list's first page, the record it opens). A
   * protected page with them is rendered on the server with their answers, so the first HTML holds
   * the rows rather than a loading state; the browser's store starts with the same answers.
   */
  initialQueries?: PageQueries;
};
