import type { NextApiRequest, NextApiResponse } from 'next';
import { forwardToPostHog } from '@/lib/analytics/ingest-proxy';

/** posthog-js's batches stream through untouched (they may be compressed), so Next must not parse them. */
export const config = { api: { bodyParser: false, externalResolver: true, responseLimit: false } };

/** Same-origin `/api/ingest/*`, forwarded to POSTHOG_HOST. */
export default function ingest(req: NextApiRequest, res: NextApiResponse): Promise<void> {
  return forwardToPostHog(req, res);
}
