import type { AppPage } from '@/app/page-access';
import { SecondFactorPage } from '@/features/auth/components/second-factor-page';

/** Public: the session is made here, after the second factor. The challenge is in an HttpOnly cookie. */
const SecondFactor: AppPage = () => <SecondFactorPage />;
SecondFactor.access = 'public';
export default SecondFactor;
