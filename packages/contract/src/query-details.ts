/**
 * Details of the data explorer's answers that a client tells apart by their words. Kept free of
 * zod so that the web app can import them without the contract's schemas (see docs/web-performance.md).
 */

/** Detail of the 404 when a saved query has no execution yet (spec §8). */
export const QUERY_NOT_EXECUTED = 'Query has not been executed yet.';
