import type { NextPage } from 'next';
import type { Permission } from '@hdp/contract';

/**
 * Who may open a page: `public` pages render without a session (sign-out, errors); `shell-if-signed-in`
 * pages (not found, server error) render for anyone, inside the shell when there is a session; every
 * other page needs a session, and a page with a permission also needs the role the matrix names.
 */
export type PageAccess = 'public' | 'shell-if-signed-in' | { permission?: Permission };

export type AppPage<P = object> = NextPage<P> & { access?: PageAccess };
