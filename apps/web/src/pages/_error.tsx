import type { NextPageContext } from 'next';
import type { AppPage } from '@/app/page-access';
import { ProblemPage } from '@/features/shell/components/problem-page';

/** Next's error page: the app's own, inside the shell when signed in (a 404 goes to pages/404). */
const ErrorPage: AppPage<{ statusCode: number }> = ({ statusCode }) => <ProblemPage kind={statusCode === 404 ? 'not-found' : 'server-error'} />;
ErrorPage.access = 'shell-if-signed-in';
(ErrorPage as AppPage<{ statusCode: number }> & { getInitialProps: (ctx: NextPageContext) => { statusCode: number } }).getInitialProps = ({ res, err }) => ({
  statusCode: res?.statusCode ?? err?.statusCode ?? 404,
});
export default ErrorPage;
