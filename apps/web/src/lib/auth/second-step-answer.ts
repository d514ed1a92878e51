import { MfaTokenRequest } from '@hdp/contract';

/**
 * The second-step page posts its answer (a code, a passkey's assertion, a new factor's first proof)
 * as one JSON field; with the pending challenge it becomes the API's request, checked against the
 * contract before it is sent. Undefined when it is not one.
 */
export function secondStepRequest(challenge: string, answer: string): MfaTokenRequest | undefined {
  let fields: unknown;
  try {
    fields = JSON.parse(answer);
  } catch {
    return undefined;
  }
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return undefined;
  const parsed = MfaTokenRequest.safeParse({ ...fields, challenge });
  return parsed.success ? parsed.data : undefined;
}
