import type { AppPage } from '@/app/page-access';
import { SignOutPage } from '@/features/auth/components/sign-out-page';

const SignOut: AppPage = () => <SignOutPage />;
SignOut.access = 'public';
SignOut.sessionOnServer = true;
export default SignOut;
