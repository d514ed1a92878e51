import type { Dataset } from '@hdp/contract';
import { Alert } from 'antd';
import { formatDate } from '@/lib/dates/format-date';
import { LoadingStatus } from '@/components/loading-status';
import { useGetDatasetQuery } from '../api/get-dataset';
import { PANEL, PANEL_TITLE } from './panel-style';

const FIGURE = { fontSize: 28, fontWeight: 600, lineHeight: 1.2, margin: 0 } as const;
const MUTED = { color: '#595959', fontSize: 13 } as const;

/** The dataset's facts and its records per domain, counts released as the explorer releases them. */
export function DatasetSummary({ dataset }: { dataset: Dataset }) {
  if (!dataset.loaded) {
    return <Alert type="info" showIcon title="No health data is loaded yet." description="An administrator loads a dataset; the counts appear here once it is in." />;
  }
  return (
    <>
      <div className="hdp-dataset-facts">
        <div>
          <p style={FIGURE} data-testid="dataset-persons">
            {dataset.person_count_display}
          </p>
          <span style={MUTED}>persons</span>
        </div>
        <dl className="hdp-facts">
          <dt>Source</dt>
          <dd>{dataset.source}</dd>
          <dt>Loaded</dt>
          <dd>{dataset.loaded_at ? formatDate(dataset.loaded_at) : '—'}</dd>
          <dt>Data model</dt>
          <dd>OMOP CDM v{dataset.cdm_version}</dd>
        </dl>
      </div>
      <table className="hdp-domain-table">
        <caption style={{ textAlign: 'start', ...MUTED, paddingBlock: 8 }}>Records by domain</caption>
        <thead>
          <tr>
            <th scope="col">Domain</th>
            <th scope="col">Records</th>
          </tr>
        </thead>
        <tbody>
          {dataset.domains.map((domain) => (
            <tr key={domain.domain}>
              <th scope="row">{domain.label}</th>
              <td>{domain.records === null ? domain.records_display : domain.records.toLocaleString('en-GB')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p style={{ ...MUTED, margin: '12px 0 0' }}>
        Counts below {dataset.suppression_threshold} are shown as “&lt; {dataset.suppression_threshold}”
        {dataset.perturbed ? '; person counts are slightly perturbed to protect privacy' : ''}.
      </p>
    </>
  );
}

/** The home page's panel about the dataset in use. */
export function DatasetPanel() {
  const { data, isLoading, isError } = useGetDatasetQuery();
  return (
    <section style={PANEL} aria-labelledby="dataset-heading">
      <h2 id="dataset-heading" style={PANEL_TITLE}>
        The dataset
      </h2>
      {data ? (
        <DatasetSummary dataset={data} />
      ) : isLoading ? (
        <LoadingStatus label="Loading the dataset" padding={24} />
      ) : isError ? (
        <Alert type="warning" showIcon title="The dataset could not be read." description="Please try again in a moment." />
      ) : null}
    </section>
  );
}
