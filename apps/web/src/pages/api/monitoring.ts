import type { NextApiRequest, NextApiResponse } from 'next';
import { forwardEnvelope } from '@/lib/errors/sentry-tunnel';

/** The envelope is forwarded as it came; Next must not parse it. */
export const config = { api: { bodyParser: false, externalResolver: true } };

/** The browser SDK's same-origin tunnel to Sentry (see lib/errors/sentry-tunnel.ts). */
export default function monitoring(req: NextApiRequest, res: NextApiResponse): Promise<void> {
  return forwardEnvelope(req, res);
}
