import type { NextPage } from 'next';
import type { Permission } from '@hdp/contract';

/**
 * Who may open a page: `public` pages render without a session (sign-out, errors); every other
 * page needs a session, and a page with a permission also needs the role the matrix names.
 */
export type PageAccess = 'public' | { permission?: Permission };

export type AppPage<P = object> = NextPage<P> & { access?: PageAccess };
