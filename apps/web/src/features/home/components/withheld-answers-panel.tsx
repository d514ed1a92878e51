import { Alert } from 'antd';
import { formatDate } from '@/lib/dates/format-date';
import { LoadingStatus } from '@/components/loading-status';
import { useListWithheldAnswersQuery } from '../api/get-withheld-answers';
import { PANEL, PANEL_TITLE } from './panel-style';

const MUTED = { color: '#595959', fontSize: 13 } as const;

/**
 * For the stewards of the data: the latest answers the tracker defence withheld (a question whose
 * persons differ from an earlier answer's by fewer than the threshold), who asked, and which
 * earlier answer it met. Several from one account, or from several at once, is the pattern to act on.
 */
export function WithheldAnswersPanel() {
  const { data, isLoading, isError } = useListWithheldAnswersQuery();
  return (
    <section style={PANEL} aria-labelledby="withheld-heading">
      <h2 id="withheld-heading" style={PANEL_TITLE}>
        Withheld answers
      </h2>
      {data ? (
        data.total === 0 ? (
          <p style={MUTED}>No answer has been withheld: no question has come within a few persons of an earlier answer.</p>
        ) : (
          <>
            <p style={MUTED}>
              {data.total} {data.total === 1 ? 'answer' : 'answers'} withheld because their persons differ from an earlier answer’s by fewer than the
              suppression threshold (the latest below; all of them are in the audit log as DISCLOSURE_TRACKER_SUSPECTED).
            </p>
            <ul className="hdp-withheld-list" style={{ paddingInlineStart: 18, margin: 0 }}>
              {data.entries.map((entry) => (
                <li key={entry.seq}>
                  <strong>{entry.actor.email ?? 'unknown'}</strong> <span style={MUTED}>{formatDate(entry.timestamp)}</span>
                  <div style={MUTED}>{entry.message}</div>
                </li>
              ))}
            </ul>
          </>
        )
      ) : isLoading ? (
        <LoadingStatus label="Loading the withheld answers" padding={24} />
      ) : isError ? (
        <Alert type="warning" showIcon title="The withheld answers could not be read." description="Please try again in a moment." />
      ) : null}
    </section>
  );
}
