/** Runs once when the server starts: production refuses to run without a session secret. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { stopWithoutSessionSecret } = await import('./lib/auth/startup-checks');
    stopWithoutSessionSecret();
  }
}
