/** The cache tags of the account page's own lists: a change to one's factors or sessions refreshes them. */
export const FACTORS_TAG = { type: 'Account' as const, id: 'FACTORS' };
export const SESSIONS_TAG = { type: 'Account' as const, id: 'SESSIONS' };
