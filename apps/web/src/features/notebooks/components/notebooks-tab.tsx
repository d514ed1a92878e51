import { useEffect, useState } from 'react';
import dynamic from 'next/dynamic';
import { PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Input, Popconfirm, Table, type TableProps } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import type { Notebook, Workbench } from '@hdp/contract';
import { useAppDispatch } from '@/app/hooks';
import { baseApi } from '@/lib/api/base-api';
import { CARD_TABLE_CLASS, labelledColumns } from '@/components/card-table';
import { formatDate } from '@/lib/dates/format-date';
import { showToast } from '@/lib/errors/notifier';
import { useListEnvironmentsQuery } from '../api/compute-catalogue';
import { useListNotebooksQuery, type NotebookOrder } from '../api/list-notebooks';
import { useDeleteNotebookMutation, useStartNotebookMutation, useStopNotebookMutation } from '../api/notebook-actions';
import { useOpenNotebook } from '../hooks/use-open-notebook';
import { isTransitional, NOTEBOOK_PAGE_SIZE, NOTEBOOK_POLL_MS } from '../labels';
import { NotebookStatusTag } from './notebook-status-tag';

const CreateNotebookDialog = dynamic(() => import('./create-notebook-dialog'), { ssr: false });

const H2 = { fontSize: 16, fontWeight: 600, margin: 0 } as const;
const MUTED = { color: '#5b6470' } as const;
const SORTABLE: Record<string, NotebookOrder> = { name: 'name', status: 'status', created: 'created_at' };

/** Whether the user may create notebooks here: OWNERs and WRITERs (READERs get 403 from the API). */
export function canCreateNotebook(workbench: Pick<Workbench, 'my_role'>): boolean {
  return workbench.my_role === 'OWNER' || workbench.my_role === 'WRITER';
}

interface ActionsProps {
  workbenchId: string;
  notebook: Notebook;
  opening: boolean;
  onOpen: (notebook: Notebook) => void;
  onStartAndOpen: (notebook: Notebook) => void;
}

/** The buttons the API's abilities allow for this notebook in its current status. */
function NotebookActions({ workbenchId, notebook, opening, onOpen, onStartAndOpen }: ActionsProps) {
  const [startNotebook, starting] = useStartNotebookMutation();
  const [stopNotebook, stopping] = useStopNotebookMutation();
  const [deleteNotebook, deleting] = useDeleteNotebookMutation();
  const ref = { workbenchId, notebookId: notebook.id };
  const { abilities, status, name } = notebook;
  // Start is also what Open offers for a stopped notebook; its creator may start it.
  const canStartAndOpen = status === 'STOPPED' && abilities.start;
  const run = (action: () => Promise<unknown>) => void action().catch(() => undefined); // The error catalogue tells the user.

  return (
    <Flex gap={8} wrap>
      {abilities.open ? (
        <Button type="primary" size="small" loading={opening} onClick={() => onOpen(notebook)} aria-label={`Open ${name}`}>
          Open
        </Button>
      ) : null}
      {canStartAndOpen ? (
        <Popconfirm
          title={`${name} is stopped`}
          description="Start it and open it in a new tab when it is running?"
          okText="Start and open"
          cancelText="Not now"
          onConfirm={() => onStartAndOpen(notebook)}
        >
          <Button size="small" loading={opening} aria-label={`Open ${name}`}>
            Open
          </Button>
        </Popconfirm>
      ) : null}
      {abilities.start ? (
        <Button size="small" loading={starting.isLoading} onClick={() => run(() => startNotebook(ref).unwrap())} aria-label={`Start ${name}`}>
          Start
        </Button>
      ) : null}
      {abilities.stop ? (
        <Button size="small" loading={stopping.isLoading} onClick={() => run(() => stopNotebook(ref).unwrap())} aria-label={`Stop ${name}`}>
          Stop
        </Button>
      ) : null}
      {abilities.delete ? (
        <Popconfirm
          title={`Delete ${name}?`}
          description="Its files are removed for good."
          okText="Delete"
          okButtonProps={{ danger: true }}
          cancelText="Keep it"
          onConfirm={() =>
            run(async () => {
              await deleteNotebook(ref).unwrap();
              showToast({ type: 'success', title: 'Notebook deleted', description: `${name} leaves the list once its files are gone.` });
            })
          }
        >
          <Button size="small" danger loading={deleting.isLoading} aria-label={`Delete ${name}`}>
            Delete
          </Button>
        </Popconfirm>
      ) : null}
    </Flex>
  );
}

/**
 * A workbench's notebooks: the list (polled while any notebook is on its way to another status),
 * Create for OWNERs and WRITERs, and per notebook the actions the API allows. When this
 * deployment cannot run notebooks the tab says what to install instead of offering Create.
 */
export default function NotebooksTab({ workbench }: { workbench: Pick<Workbench, 'id' | 'my_role'> }) {
  const workbenchId = workbench.id;
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [order, setOrder] = useState<NotebookOrder>('-created_at');
  const [creating, setCreating] = useState(false);
  const [busy, setBusy] = useState(false);
  const args = { workbenchId, skip: (page - 1) * NOTEBOOK_PAGE_SIZE, limit: NOTEBOOK_PAGE_SIZE, search: search || undefined, order_by: order };
  const list = useListNotebooksQuery(args, { pollingInterval: busy ? NOTEBOOK_POLL_MS : 0, skipPollingIfUnfocused: false });
  const notebooks = list.data?.notebooks;
  const dispatch = useAppDispatch();
  const gone = (list.error as { status?: unknown } | undefined)?.status === 404;
  // The workbench itself is gone (deleted while open) or the user was taken out of it: the page asks
  // for it again and says so, instead of this tab's error beside a workbench that still looks ready.
  useEffect(() => {
    if (gone) dispatch(baseApi.util.invalidateTags([{ type: 'Workbenches', id: workbenchId }]));
  }, [gone, workbenchId, dispatch]);
  const nowBusy = notebooks?.some((notebook) => isTransitional(notebook.status)) ?? false;
  if (nowBusy !== busy) setBusy(nowBusy);
  const environments = useListEnvironmentsQuery(workbenchId);
  const environmentName = (id: string) => environments.data?.environments.find((environment) => environment.id === id)?.name ?? id;
  const { open, startAndOpen, opening } = useOpenNotebook(workbenchId, notebooks);

  const sortOrderOf = (key: string) => {
    const field = SORTABLE[key];
    if (order === field) return 'ascend' as const;
    if (order === `-${field}`) return 'descend' as const;
    return null;
  };

  const columns: TableProps<Notebook>['columns'] = [
    { key: 'name', title: 'Name', dataIndex: 'name', sorter: true, sortOrder: sortOrderOf('name') },
    {
      key: 'status', title: 'Status', sorter: true, sortOrder: sortOrderOf('status'),
      render: (_value, notebook) => (
        <Flex vertical gap={4} align="start">
          <NotebookStatusTag status={notebook.status} />
          {notebook.status === 'FAILED' && notebook.status_reason ? (
            <span style={{ color: '#a8071a', whiteSpace: 'pre-line' }} data-testid="notebook-failure">
              {notebook.status_reason}
            </span>
          ) : null}
        </Flex>
      ),
    },
    { key: 'environment', title: 'Environment', render: (_value, notebook) => environmentName(notebook.environment) },
    {
      key: 'machine', title: 'Machine type',
      render: (_value, notebook) =>
        notebook.accelerator_type ? `${notebook.machine_type} + ${notebook.accelerator_count} × ${notebook.accelerator_type}` : notebook.machine_type,
    },
    { key: 'owner', title: 'Owner', render: (_value, notebook) => notebook.owner.name || notebook.owner.email },
    { key: 'created', title: 'Created', dataIndex: 'created_at', sorter: true, sortOrder: sortOrderOf('created'), render: (at: string) => formatDate(at) },
    {
      key: 'actions', title: 'Actions',
      render: (_value, notebook) => (
        <NotebookActions workbenchId={workbenchId} notebook={notebook} opening={opening === notebook.id} onOpen={open} onStartAndOpen={(item) => void startAndOpen(item)} />
      ),
    },
  ];

  const onChange: TableProps<Notebook>['onChange'] = (pagination, _filters, sorter) => {
    const { columnKey, order: direction } = sorter as SorterResult<Notebook>;
    const field = typeof columnKey === 'string' ? SORTABLE[columnKey] : undefined;
    setOrder(field && direction ? ((direction === 'descend' ? `-${field}` : field) as NotebookOrder) : '-created_at');
    setPage(pagination.current ?? 1);
  };

  const runtimeMissing = list.data && !list.data.runtime_available;
  return (
    <section aria-labelledby="notebooks-heading">
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 12 }}>
        <h2 id="notebooks-heading" style={H2}>
          Notebooks
        </h2>
        <Flex gap={8} wrap>
          <Input.Search
            allowClear
            placeholder="Search by name"
            aria-label="Search notebooks"
            onSearch={(value) => {
              setSearch(value.trim());
              setPage(1);
            }}
            style={{ width: 240 }}
          />
          {canCreateNotebook(workbench) && list.data?.runtime_available ? (
            <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setCreating(true)}>
              Create notebook
            </Button>
          ) : null}
        </Flex>
      </Flex>
      {runtimeMissing ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title="Notebooks cannot run on this deployment yet"
          description={list.data!.runtime_detail ?? 'Ask your administrator to install the notebook runtime.'}
        />
      ) : null}
      {list.data && !canCreateNotebook(workbench) && !runtimeMissing ? (
        <p style={{ ...MUTED, margin: '0 0 12px' }}>Readers of a workbench can see its notebooks but not create them.</p>
      ) : null}
      {list.isError ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          title="The notebooks could not be loaded"
          action={
            <Button size="small" onClick={() => void list.refetch()}>
              Try again
            </Button>
          }
        />
      ) : null}
      <Table<Notebook>
        rowKey="id"
        size="small"
        // On a phone each notebook is a card (its actions within reach), not a row of a wide table.
        className={CARD_TABLE_CLASS}
        columns={labelledColumns(columns)}
        dataSource={notebooks as Notebook[] | undefined}
        loading={list.isLoading}
        onChange={onChange}
        scroll={{ x: 'max-content' }}
        pagination={{ current: page, pageSize: NOTEBOOK_PAGE_SIZE, total: list.data?.total ?? 0, hideOnSinglePage: true, showSizeChanger: false }}
        locale={{ emptyText: list.isError ? <span /> : <span style={MUTED}>{search ? `No notebooks match “${search}”.` : 'No notebooks in this workbench yet.'}</span> }}
      />
      {creating ? <CreateNotebookDialog open={creating} workbenchId={workbenchId} onClose={() => setCreating(false)} /> : null}
    </section>
  );
}
