import type { NextApiRequest, NextApiResponse } from 'next';
import { secondStepRoute } from '@/lib/auth/second-step-route';

let handler: ReturnType<typeof secondStepRoute> | undefined;

/** The second-step page's calls to the API (see `lib/auth/second-step-route.ts`). */
export default function secondStep(req: NextApiRequest, res: NextApiResponse) {
  return (handler ??= secondStepRoute())(req, res);
}
