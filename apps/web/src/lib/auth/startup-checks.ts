import { assertSessionSecret, MISSING_SECRET_MESSAGE } from './server-env';

/** Stops the server with a clear message when production has no NEXTAUTH_SECRET. */
export function stopWithoutSessionSecret(): void {
  try {
    assertSessionSecret();
  } catch {
    process.stderr.write(`${MISSING_SECRET_MESSAGE}\n`);
    process.exit(1);
  }
}
