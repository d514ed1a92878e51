import type { AppPage } from '@/app/page-access';
import { HomePage } from '@/features/home/components/home-page';
import { homeInitialQueries } from '@/features/home/components/recent-work';

/** The home page of every signed-in user, whatever their roles. */
const Page: AppPage = () => <HomePage />;
Page.access = {};
Page.initialQueries = homeInitialQueries;
export default Page;
