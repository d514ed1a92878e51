import { useId, useState } from 'react';
import { skipToken } from '@reduxjs/toolkit/query';
import { Alert, Button, Checkbox, Input, Select, Space } from 'antd';
import type { ConceptSet, ConceptSetItem, SavedConceptSet } from '@hdp/contract';
import { ConceptPicker } from '../components/concept-picker';
import { ConceptName } from '../components/concept-info';
import { useCreateConceptSetMutation, useGetConceptSetQuery, useListConceptSetsQuery, useUpdateConceptSetMutation } from '../api/concept-sets';
import { detailOf } from '@/lib/errors/api-error-handler';
import { fromSavedConceptSet, newerVersion, nextVersionBody, openedForChange, removed, replaced, type SavedOrigin } from './definition-model';

const SEARCH_DOMAINS = [
  { value: '', label: 'All domains' },
  { value: 'Drug', label: 'Drugs' },
  { value: 'Condition', label: 'Conditions' },
  { value: 'Procedure', label: 'Procedures' },
  { value: 'Measurement', label: 'Measurements' },
  { value: 'Observation', label: 'Observations' },
  { value: 'Visit', label: 'Visits' },
];

const FLAGS = [
  { key: 'includeDescendants', label: 'Descendants' },
  { key: 'isExcluded', label: 'Exclude' },
  { key: 'includeMapped', label: 'Mapped' },
] as const;

const CELL = { textAlign: 'left', padding: '4px 6px', borderBottom: '1px solid #e5e8ec', fontWeight: 400 } as const;

/** How many concepts the list names, and how many of them it takes away. */
export function conceptSetSize(set: ConceptSet): string {
  const items = set.expression.items;
  const excluded = items.filter((i) => i.isExcluded).length;
  const listed = `${items.length} ${items.length === 1 ? 'concept' : 'concepts'} listed`;
  return excluded ? `${listed} (${excluded} excluded)` : listed;
}

/**
 * One concept set: its name, a concept search that adds to it, and per concept Circe's three flags
 * (include descendants, exclude, include mapped). The count is of the listed concepts: the API
 * resolves descendants and mappings when it counts.
 */
export function ConceptSetEditor({ set, onChange, onRemove }: { set: ConceptSet; onChange: (set: ConceptSet) => void; onRemove: () => void }) {
  const saved = set.savedConceptSet;
  // The newest version of the saved set (a read without `version` answers the newest).
  const { data: newest } = useGetConceptSetQuery(saved ? { conceptSetId: saved.id } : skipToken);
  const [save, saving] = useCreateConceptSetMutation();
  const [saveVersion, savingVersion] = useUpdateConceptSetMutation();
  const [saveError, setSaveError] = useState<string | null>(null);
  // The saved set this inline one was opened from for change (kept in the definition).
  const origin = set.changedFrom;
  const newer = newerVersion(set, newest?.latest_version);
  const failed = (error: { data?: unknown }) => setSaveError(detailOf(error.data) ?? detailOf(error) ?? 'the server could not be reached; try again in a moment.');
  const saveToLibrary = () => {
    setSaveError(null);
    save({ name: set.name.trim(), items: set.expression.items })
      .unwrap()
      .then((created) => onChange(fromSavedConceptSet(created, set.id)))
      .catch(failed);
  };
  const saveAsNextVersion = (from: SavedOrigin) => {
    setSaveError(null);
    saveVersion({ conceptSetId: from.id, ...nextVersionBody(set, from) })
      .unwrap()
      .then((updated) => onChange(fromSavedConceptSet(updated, set.id)))
      .catch(failed);
  };
  const openForChange = () => {
    const opened = openedForChange(set);
    if (opened) onChange(opened);
  };
  const [domain, setDomain] = useState('');
  const headingId = useId();
  const items = set.expression.items;
  const setItems = (next: ConceptSetItem[]) => onChange({ ...set, expression: { items: next } });
  const add = (value: number | number[] | '') => {
    const id = typeof value === 'number' ? value : undefined;
    if (id === undefined || items.some((i) => i.conceptId === id)) return;
    // Descendants by default: a set of an ingredient or a disorder is meant to match what sits under it.
    setItems([...items, { conceptId: id, includeDescendants: true, isExcluded: false, includeMapped: false }]);
  };
  return (
    <fieldset className="concept-set-editor" aria-labelledby={headingId} style={{ border: '1px solid #e5e8ec', borderRadius: 6, padding: 12, margin: '0 0 12px', minWidth: 0 }}>
      <legend id={headingId} style={{ fontSize: 14, fontWeight: 600, padding: '0 4px', width: 'auto', margin: 0, border: 0 }}>
        Concept set: {set.name}
      </legend>
      <Space wrap size={8} style={{ marginBottom: 8 }}>
        <Input aria-label="Concept set name" value={set.name} readOnly={!!saved} onChange={(e) => onChange({ ...set, name: e.target.value })} style={{ width: 220, maxWidth: '100%' }} />
        <span className="concept-set-size" style={{ color: '#5b6470', fontSize: 13 }}>
          {conceptSetSize(set)}
        </span>
        {saved ? null : (
          <Button size="small" loading={saving.isLoading} disabled={items.length === 0 || !set.name.trim()} onClick={saveToLibrary}>
            {origin ? 'Save to the library as a new set' : 'Save to the library'}
          </Button>
        )}
        <Button size="small" danger onClick={onRemove}>
          Remove concept set
        </Button>
      </Space>
      {saveError ? (
        <div role="alert">
          <Alert type="error" showIcon role="none" title={`The concept set was not saved: ${saveError}`} style={{ marginBottom: 8 }} />
        </div>
      ) : null}
      {origin && !saved ? (
        <div className="changed-saved-concept-set" style={{ marginBottom: 8 }}>
          <p style={{ margin: '0 0 8px', color: '#5b6470' }}>
            Changed from the saved concept set {origin.name}, version {origin.version}. Saving makes its next version, which this definition then uses; other definitions keep the version they pin.
          </p>
          <Button size="small" type="primary" loading={savingVersion.isLoading} disabled={items.length === 0 || !set.name.trim()} onClick={() => saveAsNextVersion(origin)}>
            Save as a new version of {origin.name}
          </Button>
        </div>
      ) : null}
      {saved ? (
        <div className="saved-concept-set" style={{ marginBottom: 8 }}>
          <p className="saved-concept-set-version" style={{ margin: '0 0 8px', color: '#5b6470' }}>
            Saved concept set, version {saved.version}: the definition uses this version until you update it. To change its concepts, edit a copy.
          </p>
          {newer && newest ? (
            <div role="status" className="saved-concept-set-newer">
              <Alert
                type="info"
                showIcon
                role="none"
                style={{ marginBottom: 8 }}
                title={`A newer version of ${newest.name} exists: version ${newer} (this definition uses version ${saved.version}).`}
                action={
                  <Button size="small" onClick={() => onChange(fromSavedConceptSet(newest, set.id))}>
                    Update to version {newer}
                  </Button>
                }
              />
            </div>
          ) : null}
          <Space wrap size={8}>
            <Button size="small" onClick={openForChange}>
              Change and save as a new version
            </Button>
            <Button size="small" onClick={() => onChange({ id: set.id, name: `${set.name} (copy)`, expression: set.expression })}>
              Edit a copy
            </Button>
          </Space>
        </div>
      ) : (
        <Space wrap size={8} style={{ marginBottom: 8, width: '100%' }}>
          <Select aria-label={`Search concepts of ${set.name} in`} value={domain} onChange={setDomain} options={SEARCH_DOMAINS} style={{ width: 150 }} />
          <ConceptPicker domain={domain} multiple={false} value="" onChange={add} label={`Add a concept to ${set.name}`} />
        </Space>
      )}
      {items.length === 0 ? (
        <p style={{ margin: 0, color: '#5b6470' }}>No concepts yet: search above to add one.</p>
      ) : (
        <div style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={`Concepts of ${set.name}`}>
          <table className="concept-set-items" style={{ borderCollapse: 'collapse', width: '100%' }}>
            <thead>
              <tr>
                <th scope="col" style={CELL}>
                  Concept
                </th>
                {FLAGS.map((f) => (
                  <th key={f.key} scope="col" style={CELL}>
                    {f.label}
                  </th>
                ))}
                <th scope="col" style={CELL}>
                  <span style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((item, i) => (
                <tr key={item.conceptId} className={item.isExcluded ? 'concept-excluded' : undefined}>
                  <th scope="row" style={CELL}>
                    <span style={item.isExcluded ? { textDecoration: 'line-through' } : undefined}>
                      <ConceptName conceptId={item.conceptId} />
                    </span>{' '}
                    <span style={{ color: '#5b6470', fontSize: 12 }}>({item.conceptId})</span>
                  </th>
                  {FLAGS.map((f) => (
                    <td key={f.key} style={CELL}>
                      <Checkbox
                        disabled={!!saved}
                        aria-label={`${f.label}: concept ${item.conceptId}`}
                        checked={!!item[f.key]}
                        onChange={(e) => setItems(replaced(items, i, { ...item, [f.key]: e.target.checked }))}
                      />
                    </td>
                  ))}
                  <td style={CELL}>
                    <Button size="small" type="link" disabled={!!saved} onClick={() => setItems(removed(items, i))} aria-label={`Remove concept ${item.conceptId}`}>
                      Remove
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </fieldset>
  );
}

/**
 * Adds a saved concept set from the library to the definition, pinned at its newest version (the
 * definition keeps that version until the researcher updates it).
 */
export function SavedConceptSetPicker({ onPick, usedIds }: { onPick: (saved: SavedConceptSet) => void; usedIds: ReadonlySet<string> }) {
  const { data, isFetching, isError } = useListConceptSetsQuery({});
  const options = (data?.concept_sets ?? []).map((saved) => ({
    value: saved.id,
    label: `${saved.name} (version ${saved.version}, ${saved.items.length} ${saved.items.length === 1 ? 'concept' : 'concepts'})`,
    disabled: usedIds.has(saved.id),
  }));
  return (
    <Select
      aria-label="Use a saved concept set"
      className="saved-concept-set-picker"
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={isError ? 'The library could not be read' : 'Use a saved concept set'}
      loading={isFetching}
      value={null}
      notFoundContent={isFetching ? 'Loading…' : 'No saved concept sets yet'}
      options={options}
      onChange={(id: string) => {
        const saved = data?.concept_sets.find((s) => s.id === id);
        if (saved) onPick(saved);
      }}
      popupMatchSelectWidth={false}
      style={{ width: 260, maxWidth: '100%' }}
    />
  );
}
