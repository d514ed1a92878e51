import { createContext, useContext } from 'react';
import type { Me } from '@hdp/contract';

/**
 * The signed-in user as the shell knows them: the server's copy the page was rendered with, then
 * the browser's own reading. A page that needs only the user (not a fresh reading of its own) takes
 * it from here, so it renders on the server with the shell rather than after a call from the browser.
 */
export const CurrentUserContext = createContext<Me | undefined>(undefined);

export function useCurrentUser(): Me | undefined {
  return useContext(CurrentUserContext);
}
