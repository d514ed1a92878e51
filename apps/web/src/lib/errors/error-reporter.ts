/** What is known about a failed call when it is reported. */
export interface ErrorReportContext {
  endpoint: string;
  method?: string;
  status: number | string;
  args: unknown;
  response: unknown;
  url?: string;
}

/** The error-reporting service, as the app uses it. */
export interface ErrorReporter {
  report(error: Error, context: ErrorReportContext): void;
}

/**
 * Stand-in for the external error-reporting service, which cannot be reached from this
 * environment: it keeps nothing and sends nothing. The handler already writes unexpected errors
 * to the console; a real reporter is installed with `setErrorReporter` at start-up.
 */
export const noopErrorReporter: ErrorReporter = {
  report() {},
};

let current: ErrorReporter = noopErrorReporter;

/** Installs the error reporter (the real service in production builds, a fake in tests). */
export function setErrorReporter(reporter: ErrorReporter): void {
  current = reporter;
}

export function getErrorReporter(): ErrorReporter {
  return current;
}
