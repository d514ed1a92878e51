import Head from 'next/head';
import Link from 'next/link';
import type { Me } from '@hdp/contract';
import { can } from '@hdp/contract/permissions';
import { BRAND } from '@/config/brand';
import { useCurrentUser } from '@/lib/auth/current-user';
import { nextStepsFor } from '../next-steps';
import { DatasetPanel } from './dataset-panel';
import { WithheldAnswersPanel } from './withheld-answers-panel';
import { PANEL, PANEL_TITLE } from './panel-style';
import { RecentWork, useHomeDataSettled } from './recent-work';
import { LoadingStatus } from '@/components/loading-status';

/** What the user's roles let them do next, as links. */
export function NextSteps({ me }: { me: Me }) {
  const steps = nextStepsFor(me);
  return (
    <section style={PANEL} aria-labelledby="next-steps-heading">
      <h2 id="next-steps-heading" style={PANEL_TITLE}>
        What you can do
      </h2>
      {steps.length === 0 ? (
        <p style={{ margin: 0 }}>Your account has no role that opens a page yet. Please ask an administrator.</p>
      ) : (
        <ul className="hdp-next-steps">
          {steps.map((step) => (
            <li key={step.key}>
              <Link href={step.href} prefetch={false}>
                {step.title}
              </Link>
              <span>{step.description}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The home page of every signed-in user: the dataset in use (for the roles that may see aggregate
 * data), their recent work, and what their roles let them do next.
 */
export function HomePage() {
  // The shell renders pages only once the user is known (on the server too), so `me` is there.
  const me = useCurrentUser();
  if (!me) return null;
  return <Home me={me} />;
}

function Home({ me }: { me: Me }) {
  const settled = useHomeDataSettled(me);
  const firstName = (me.name ?? me.email).split(' ')[0];
  return (
    <>
      <Head>
        <title>{`Home · ${BRAND.name}`}</title>
      </Head>
      <h1 style={{ fontSize: 24, fontWeight: 600, margin: '0 0 16px' }}>Welcome, {firstName}</h1>
      {settled ? (
        <div className="hdp-home-grid">
          <div className="hdp-home-column">
            {can(me, 'dataExplorer:readDataset') ? <DatasetPanel /> : null}
            <NextSteps me={me} />
          </div>
          <div className="hdp-home-column">
            <RecentWork me={me} />
            {can(me, 'disclosure:reviewWithheld') ? <WithheldAnswersPanel /> : null}
          </div>
        </div>
      ) : (
        <LoadingStatus label="Loading your home page" padding={48} />
      )}
    </>
  );
}
