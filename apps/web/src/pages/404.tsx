import type { AppPage } from '@/app/page-access';
import { ProblemPage } from '@/features/shell/components/problem-page';

/** Next's not-found page: the app's own, inside the shell when signed in. */
const NotFound: AppPage = () => <ProblemPage kind="not-found" />;
NotFound.access = 'shell-if-signed-in';
export default NotFound;
