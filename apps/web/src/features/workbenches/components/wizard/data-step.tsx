import { useEffect, useState } from 'react';
import { Button, Input, Select } from 'antd';
import type { Me } from '@hdp/contract';
import { WORKBENCH_LIMITS } from '@hdp/contract/workbench-rules';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { useListCohortsQuery } from '@/features/cohorts/api/list-cohorts';
import { useListQueriesQuery } from '@/features/data-explorer/api/queries';
import { useListDocumentsQuery } from '@/features/documents/api/list-documents';
import { awaitingText, NOT_RELEASABLE_TEXT, shownVersion } from '@/lib/cohorts/published-version';
import { formatSize } from '@/lib/files/document-size';
import {
  cohortTagsLoaded,
  cohortToggled,
  cohortVersionChosen,
  documentRemoved,
  type PickedCohort,
  documentToggled,
  queryRemoved,
  queryToggled,
  selectWorkbenchWizard,
} from '../../slice';
import { ChosenList, PickList } from './pick-list';

/** Items a page of each picker shows. */
export const PICKER_PAGE_SIZE = 10;

const SECTION = { marginBottom: 24 } as const;
const H3 = { fontSize: 15, fontWeight: 600, margin: '0 0 8px' } as const;
const atLimit = (count: number, max: number, what: string) => (count >= max ? `a workbench can hold at most ${max} ${what}` : undefined);

/** A chosen cohort's line: the version it releases and its persons, and whether that is a change. */
function chosenDetail(cohort: PickedCohort): string {
  const version = cohort.version === undefined ? '' : `, version ${cohort.version}`;
  const change =
    cohort.releasedVersion !== undefined && cohort.version !== cohort.releasedVersion ? ` (replaces version ${cohort.releasedVersion} on save)` : '';
  return `${cohort.personCountDisplay} persons${version}${change}`;
}

/**
 * Released cohorts with a newer published version: "Update to version N" moves the pick to it (Save
 * then replaces the released files), "Keep version N" undoes that. A newer version that cannot be
 * released says why instead.
 */
function NewerVersions({ cohorts }: { cohorts: readonly PickedCohort[] }) {
  const dispatch = useAppDispatch();
  const withNewer = cohorts.filter((cohort) => cohort.newer && cohort.releasedVersion !== undefined);
  if (withNewer.length === 0) return null;
  return (
    <ul aria-label="Newer published versions" style={{ listStyle: 'none', margin: '0 0 12px', padding: 0 }}>
      {withNewer.map((cohort) => {
        const newer = cohort.newer!;
        const moving = cohort.version === newer.version;
        return (
          <li key={cohort.id} style={{ padding: '4px 0', display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8 }}>
            <span>
              {moving
                ? `${cohort.name}: version ${newer.version} (${newer.personCountDisplay} persons) will replace version ${cohort.releasedVersion} when you save.`
                : `${cohort.name}: version ${newer.version} (${newer.personCountDisplay} persons) is published; this workbench has version ${cohort.releasedVersion}.`}
            </span>
            {newer.notReleasable ? (
              <span style={{ color: '#a8071a' }}>Version {newer.version} cannot be released now: {newer.notReleasable}.</span>
            ) : (
              <Button size="small" type={moving ? 'default' : 'primary'} onClick={() => dispatch(cohortVersionChosen({ id: cohort.id, toNewer: !moving }))}>
                {moving ? `Keep version ${cohort.releasedVersion}` : `Update to version ${newer.version}`}
              </Button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** Published cohorts, searchable by name and by tag; each shows the version a workbench releases (the published one) and its size. */
function CohortPicker() {
  const dispatch = useAppDispatch();
  const { cohorts } = useAppSelector(selectWorkbenchWizard);
  const [search, setSearch] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [page, setPage] = useState(1);
  const { data, isFetching, isError } = useListCohortsQuery({
    skip: (page - 1) * PICKER_PAGE_SIZE,
    limit: PICKER_PAGE_SIZE,
    status: 'PUBLISHED',
    order_by: 'name',
    ...(search ? { search } : {}),
    ...(tags.length ? { tags } : {}),
  });
  useEffect(() => {
    if (data) dispatch(cohortTagsLoaded(data.total_tags));
  }, [data, dispatch]);
  const picked = new Set(cohorts.cohorts.map((cohort) => cohort.id));
  const full = atLimit(cohorts.cohorts.length, WORKBENCH_LIMITS.maxCohorts, 'cohorts');

  return (
    <section aria-labelledby="pick-cohorts" style={SECTION}>
      <h3 id="pick-cohorts" style={H3}>
        Cohorts
      </h3>
      <ChosenList
        label="Chosen cohorts"
        emptyText="No cohort chosen yet."
        items={cohorts.cohorts.map((cohort) => ({
          id: cohort.id,
          label: cohort.name,
          detail: chosenDetail(cohort),
        }))}
        onRemove={(id) => {
          const cohort = cohorts.cohorts.find((item) => item.id === id)!;
          dispatch(cohortToggled({ cohort, picked: false }));
        }}
      />
      <NewerVersions cohorts={cohorts.cohorts} />
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, marginBottom: 8 }}>
        <Input.Search
          aria-label="Search published cohorts"
          placeholder="Search by name or description"
          allowClear
          onSearch={(value) => {
            setSearch(value.trim());
            setPage(1);
          }}
          style={{ width: 280 }}
        />
        <Select
          aria-label="Cohort tags"
          mode="multiple"
          allowClear
          placeholder="Any tag"
          value={tags}
          options={cohorts.totalTags.map((tag) => ({ value: tag, label: tag }))}
          onChange={(values: string[]) => {
            setTags(values);
            setPage(1);
          }}
          style={{ minWidth: 200, maxWidth: 360 }}
          notFoundContent={<span style={{ color: '#595959' }}>No tags yet</span>}
        />
      </div>
      <PickList
        label="Published cohorts"
        loading={isFetching}
        error={isError}
        emptyText={search || tags.length ? 'No published cohort matches.' : 'No cohort has been published yet.'}
        items={(data?.cohorts ?? []).map((cohort) => {
          const shown = shownVersion(cohort);
          return {
            id: cohort.id,
            label: cohort.name,
            detail: (
              <>
                {`${shown.countDisplay} persons · version ${shown.version} (published)`}
                {shown.awaiting ? ` · ${awaitingText(shown.awaiting)}` : ''}
                {cohort.tags.length ? ` · ${cohort.tags.join(', ')}` : ''}
                {shown.notReleasable ? (
                  <span style={{ display: 'block', color: '#a8071a' }} data-testid="cohort-not-releasable">
                    Cannot be released now. {NOT_RELEASABLE_TEXT}
                  </span>
                ) : null}
              </>
            ),
            checked: picked.has(cohort.id),
            disabledReason: picked.has(cohort.id) ? undefined : shown.notReleasable ? 'not releasable now' : full,
          };
        })}
        onToggle={(id, checked) => {
          const cohort = data!.cohorts.find((item) => item.id === id)!;
          const shown = shownVersion(cohort);
          const pick: PickedCohort = {
            id,
            name: cohort.name,
            tags: cohort.tags,
            personCountDisplay: shown.countDisplay,
            version: shown.version,
            ...(shown.awaiting ? { awaitingVersion: shown.awaiting.version } : {}),
          };
          dispatch(cohortToggled({ cohort: pick, picked: checked }));
        }}
        page={page}
        pageSize={PICKER_PAGE_SIZE}
        total={data?.total ?? 0}
        onPage={setPage}
      />
    </section>
  );
}

/** The user's own saved queries, searchable by name. */
function QueryPicker({ me }: { me: Me }) {
  const dispatch = useAppDispatch();
  const { queries } = useAppSelector(selectWorkbenchWizard);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const { data, isFetching, isError } = useListQueriesQuery({
    skip: (page - 1) * PICKER_PAGE_SIZE,
    limit: PICKER_PAGE_SIZE,
    created_by: me.id,
    order_by: 'name',
    ...(search ? { name_search: search } : {}),
  });
  const picked = new Set(queries.flatMap((query) => [query.id, query.sourceId]));
  const full = atLimit(queries.length, WORKBENCH_LIMITS.maxQueries, 'queries');

  return (
    <section aria-labelledby="pick-queries" style={SECTION}>
      <h3 id="pick-queries" style={H3}>
        Saved queries
      </h3>
      <ChosenList label="Chosen queries" emptyText="No query chosen yet." items={queries.map((query) => ({ id: query.id, label: query.name }))} onRemove={(id) => dispatch(queryRemoved(id))} />
      <Input.Search
        aria-label="Search your saved queries"
        placeholder="Search by name"
        allowClear
        onSearch={(value) => {
          setSearch(value.trim());
          setPage(1);
        }}
        style={{ width: 280, marginBottom: 8 }}
      />
      <PickList
        label="Your saved queries"
        loading={isFetching}
        error={isError}
        emptyText={search ? 'No saved query matches.' : 'You have no saved queries. Save one in the Data Explorer.'}
        items={(data?.queries ?? []).map((query) => ({
          id: query.id,
          label: query.name,
          detail: query.description || undefined,
          checked: picked.has(query.id),
          disabledReason: full,
        }))}
        onToggle={(id, checked) => dispatch(queryToggled({ id, name: data!.queries.find((query) => query.id === id)!.name, picked: checked }))}
        page={page}
        pageSize={PICKER_PAGE_SIZE}
        total={data?.total ?? 0}
        onPage={setPage}
      />
    </section>
  );
}

/** Documents the user uploaded (an administrator's list holds everyone's: only their own can be chosen). */
function DocumentPicker({ me }: { me: Me }) {
  const dispatch = useAppDispatch();
  const { documents } = useAppSelector(selectWorkbenchWizard);
  const [page, setPage] = useState(1);
  const { data, isFetching, isError } = useListDocumentsQuery({ skip: (page - 1) * PICKER_PAGE_SIZE, limit: PICKER_PAGE_SIZE, order_by: 'name' });
  const picked = new Set(documents.flatMap((document) => [document.id, document.sourceId]));
  const full = atLimit(documents.length, WORKBENCH_LIMITS.maxDocuments, 'documents');

  return (
    <section aria-labelledby="pick-documents" style={SECTION}>
      <h3 id="pick-documents" style={H3}>
        Documents
      </h3>
      <ChosenList
        label="Chosen documents"
        emptyText="No document chosen yet."
        items={documents.map((document) => ({ id: document.id, label: document.name, detail: formatSize(document.sizeBytes) }))}
        onRemove={(id) => dispatch(documentRemoved(id))}
      />
      <PickList
        label="Your documents"
        loading={isFetching}
        error={isError}
        emptyText="You have not uploaded any documents. Upload them on the Documents page."
        items={(data?.documents ?? []).map((document) => ({
          id: document.id,
          label: document.name,
          detail: formatSize(document.size_bytes),
          checked: picked.has(document.id),
          disabledReason: document.owner.id !== me.id ? `uploaded by ${document.owner.email}: only your own documents can be added` : full,
        }))}
        onToggle={(id, checked) => {
          const document = data!.documents.find((item) => item.id === id)!;
          dispatch(documentToggled({ id, name: document.name, sizeBytes: document.size_bytes, picked: checked }));
        }}
        page={page}
        pageSize={PICKER_PAGE_SIZE}
        total={data?.total ?? 0}
        onPage={setPage}
      />
    </section>
  );
}

/** The data step: published cohorts, the user's saved queries and their documents. */
export function DataStep({ me }: { me: Me }) {
  return (
    <>
      <p style={{ margin: '0 0 16px' }}>
        Choose the data to release to the workbench. Each cohort&apos;s row-level records are copied into the workbench; queries and documents are
        copied too, so later changes to the originals do not change the workbench.
      </p>
      <CohortPicker />
      <QueryPicker me={me} />
      <DocumentPicker me={me} />
    </>
  );
}
