import type { AppPage } from '@/app/page-access';
import { SignOutPage } from '@/features/auth/components/sign-out-page';

const SignOut: AppPage = () => <SignOutPage />;
SignOut.access = 'public';
export default SignOut;
