import { serveStackControl, startStack } from './support/stack';

/** Starts the API and the web app for the run; the returned function stops them. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const stack = await startStack((line) => process.stdout.write(`[e2e] ${line}\n`));
  process.env.E2E_WEB_URL = stack.webUrl;
  process.env.E2E_API_URL = stack.apiUrl;
  process.env.E2E_DATA_DIR = stack.dataDir;
  const control = await serveStackControl(stack);
  process.env.E2E_STACK_CONTROL_URL = control.url;
  return async () => {
    await control.close();
    await stack.stop();
  };
}
