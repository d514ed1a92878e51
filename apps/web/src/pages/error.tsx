import type { AppPage } from '@/app/page-access';
import { AuthErrorPage } from '@/features/auth/components/auth-error-page';

const ErrorPage: AppPage = () => <AuthErrorPage />;
ErrorPage.access = 'public';
export default ErrorPage;
