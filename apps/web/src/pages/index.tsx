import type { AppPage } from '@/app/page-access';
import { HomePage } from '@/features/home/components/home-page';

/** The home page of every signed-in user, whatever their roles. */
const Page: AppPage = () => <HomePage />;
Page.access = {};
export default Page;
