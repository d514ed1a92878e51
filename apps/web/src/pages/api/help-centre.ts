import type { NextApiRequest, NextApiResponse } from 'next';
import { readServerEnv } from '@/lib/auth/server-env';

/** Sends the browser to the help centre configured at run time (HELP_CENTRE_URL). */
export default function helpCentre(_req: NextApiRequest, res: NextApiResponse): void {
  res.redirect(302, readServerEnv().helpCentreUrl);
}
