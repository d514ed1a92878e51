import { useState } from 'react';
import { useRouter } from 'next/router';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Flex, Form, Input, Modal } from 'antd';
import type { Workbench } from '@hdp/contract';
import { useCreateReleaseRequestMutation, useListReleaseRequestsQuery } from '../api/release-requests';
import { OUTPUT_PAGE_SIZE } from '../labels';
import { ReleaseRequestsTable } from './release-requests-table';

const H2 = { fontSize: 16, fontWeight: 600, margin: 0 } as const;
const MUTED = { color: '#5b6470' } as const;

export const requestHref = (workbenchId: string, requestId: string) => `/workbenches/${workbenchId}/outputs/${requestId}`;

/**
 * A workbench's release requests (the only way anything leaves it), and New request for OWNERs
 * and WRITERs.
 */
export default function OutputsTab({ workbench }: { workbench: Pick<Workbench, 'id' | 'my_role'> }) {
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const list = useListReleaseRequestsQuery({ workbenchId: workbench.id, skip: (page - 1) * OUTPUT_PAGE_SIZE, limit: OUTPUT_PAGE_SIZE });
  const [create, created] = useCreateReleaseRequestMutation();
  const mayCreate = workbench.my_role === 'OWNER' || workbench.my_role === 'WRITER';
  const [form] = Form.useForm<{ title: string }>();
  const router = useRouter();


  return (
    <section aria-labelledby="outputs-heading">
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 12 }}>
        <h2 id="outputs-heading" style={H2}>
          Outputs
        </h2>
        {mayCreate ? (
          <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setCreating(true)}>
            New release request
          </Button>
        ) : null}
      </Flex>
      <p style={{ ...MUTED, margin: '0 0 12px' }}>
        Nothing leaves a workbench except through a release request: its files are checked automatically, then reviewed by two data
        stewards from outside the workbench, and released as a package with a record of every check.
        {mayCreate ? '' : ' Readers can see the requests but not make them.'}
      </p>
      <ReleaseRequestsTable
        columns={['title', 'state', 'author', 'files', 'updated']}
        href={(r) => requestHref(workbench.id, r.id)}
        list={list}
        page={page}
        onPage={setPage}
        failureTitle="The release requests could not be loaded."
        empty="No release requests yet."
      />
      <Modal
        open={creating}
        title="New release request"
        okText="Create"
        confirmLoading={created.isLoading}
        onCancel={() => setCreating(false)}
        onOk={() => form.submit()}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          onFinish={async ({ title }) => {
            const request = await create({ workbenchId: workbench.id, title }).unwrap().catch(() => undefined);
            if (!request) return;
            setCreating(false);
            void router.push(requestHref(workbench.id, request.id));
          }}
        >
          <Form.Item name="title" label="Title" rules={[{ required: true, whitespace: true, message: 'Give the request a title.' }, { max: 200 }]}>
            <Input placeholder="e.g. Table 1: patients by age band" />
          </Form.Item>
        </Form>
      </Modal>
    </section>
  );
}
