import type { NextApiRequest, NextApiResponse } from 'next';
import { forwardToApi } from '@/lib/api/forward-to-api';
import { readServerEnv } from '@/lib/auth/server-env';

/** The body streams through untouched (uploads up to the API's cap), so Next must not parse it. */
export const config = { api: { bodyParser: false, externalResolver: true, responseLimit: false } };

/** Same-origin `/api/v1/*` for the browser, forwarded to the API at API_INTERNAL_URL. */
export default function apiForwarder(req: NextApiRequest, res: NextApiResponse): Promise<void> {
  const { apiInternalUrl, clientAddressSecret, trustProxy } = readServerEnv();
  return forwardToApi(req, res, { apiBaseUrl: apiInternalUrl, clientAddressSecret, trustProxy });
}
