import { useState } from 'react';
import { Alert, Button, Flex, Form, Input, Modal, Radio, Select, Space, Tag } from 'antd';
import type { ReleaseFile, ReleaseRequest } from '@hdp/contract';
import { formatDate } from '@/lib/dates/format-date';
import { formatSize } from '@/lib/files/document-size';
import { saveBlobUrl } from '@/lib/files/save-blob-url';
import { showToast } from '@/lib/errors/notifier';
import { useGetMeQuery } from '@/features/users/api/get-me';
import {
  useAddReleaseFileMutation,
  useAddReleaseGroupMutation,
  useChangeReleaseRequestMutation,
  useCommentOnReleaseRequestMutation,
  useDownloadReleasePackageMutation,
  useGetReleaseRequestQuery,
  useListOutputCandidatesQuery,
  useRemoveReleaseFileMutation,
  useSubmitReleaseReviewMutation,
  useVoteOnReleaseFileMutation,
  type ReleaseStep,
} from '../api/release-requests';
import { CHECKS_POLL_MS } from '../labels';
import { FileViewer } from './file-viewer';
import { RequestStateTag, VerdictTag } from './request-state-tag';

const PANEL = { background: '#ffffff', border: '1px solid #e5e8ec', borderRadius: 8, padding: 24, marginBottom: 16 } as const;
const H2 = { fontSize: 16, fontWeight: 600, margin: '0 0 12px' } as const;
const H3 = { fontSize: 15, fontWeight: 600, margin: 0 } as const;
const MUTED = { color: '#5b6470' } as const;
const ignore = () => undefined; // The error catalogue tells the user what went wrong.

/** The automatic checks' reasons for one file. */
function Findings({ file }: { file: ReleaseFile }) {
  if (file.checks.state === 'ERROR') return <Alert type="warning" showIcon title="The automatic checks could not run" description={file.checks.error} />;
  if (file.checks.findings.length === 0) return file.checks.state === 'DONE' ? <p style={{ ...MUTED, margin: 0 }}>No problem found by the automatic checks.</p> : null;
  return (
    <ul style={{ margin: 0, paddingInlineStart: 20 }} aria-label={`Automatic checks of ${file.name}`}>
      {file.checks.findings.map((finding, i) => (
        <li key={i}>
          <strong>{finding.verdict === 'FAIL' ? 'Fails' : 'For review'}:</strong> {finding.message}
          {finding.cells.length > 0 ? ` Cells: ${finding.cells.slice(0, 8).map((c) => `row ${c.row}, ${c.column}`).join('; ')}${finding.cells.length > 8 ? '; …' : ''}.` : ''}
        </li>
      ))}
    </ul>
  );
}

/** A checker's vote on a file: approve, or request changes with a reason (needed against the automatic verdict). */
function VoteControls({ request, file }: { request: ReleaseRequest; file: ReleaseFile }) {
  const [vote, voting] = useVoteOnReleaseFileMutation();
  const [comment, setComment] = useState('');
  const { data: me } = useGetMeQuery();
  const mine = file.votes.find((v) => v.reviewer.id === me?.id) ?? null;
  if (!request.abilities.review) return null;
  const cast = (choice: 'APPROVE' | 'CHANGES') =>
    void vote({ requestId: request.id, fileId: file.id, vote: choice, comment: comment.trim() || undefined }).unwrap().catch(ignore);
  return (
    <Flex vertical gap={8} style={{ marginTop: 8 }}>
      <Input.TextArea
        rows={2}
        value={comment}
        onChange={(e) => setComment(e.target.value)}
        aria-label={`Your comment on ${file.name}`}
        placeholder="Your reason (needed when you vote against the automatic checks)"
      />
      <Space wrap>
        <Button size="small" type={mine?.vote === 'APPROVE' ? 'primary' : 'default'} loading={voting.isLoading} onClick={() => cast('APPROVE')} aria-label={`Approve ${file.name}`}>
          Approve
        </Button>
        <Button size="small" type={mine?.vote === 'CHANGES' ? 'primary' : 'default'} danger={mine?.vote === 'CHANGES'} loading={voting.isLoading} onClick={() => cast('CHANGES')} aria-label={`Request changes to ${file.name}`}>
          Request changes
        </Button>
        {mine ? <span style={MUTED}>Your vote: {mine.vote === 'APPROVE' ? 'approve' : 'request changes'}</span> : <span style={MUTED}>No vote yet</span>}
      </Space>
    </Flex>
  );
}

function FileCard({ request, file }: { request: ReleaseRequest; file: ReleaseFile }) {
  const [remove, removing] = useRemoveReleaseFileMutation();
  const others = request.votes_unblinded ? file.votes : [];
  return (
    <article style={{ border: '1px solid #e5e8ec', borderRadius: 8, padding: 16, marginTop: 12 }} aria-labelledby={`file-${file.id}`} data-testid="release-file">
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Flex align="center" gap={8} wrap>
          <h4 id={`file-${file.id}`} style={{ ...H3, overflowWrap: 'anywhere' }}>
            {file.name}
          </h4>
          <Tag style={{ marginInlineEnd: 0 }}>{file.kind === 'OUTPUT' ? 'Output' : 'Supporting (never released)'}</Tag>
          <VerdictTag verdict={file.checks.verdict} state={file.checks.state} />
        </Flex>
        {request.abilities.edit ? (
          <Button size="small" danger loading={removing.isLoading} onClick={() => void remove({ requestId: request.id, fileId: file.id }).unwrap().catch(ignore)} aria-label={`Remove ${file.name}`}>
            Remove
          </Button>
        ) : null}
      </Flex>
      <p style={{ ...MUTED, margin: '4px 0 8px', overflowWrap: 'anywhere' }}>
        Version {file.version} · {formatSize(file.size_bytes)} · from {file.source.path} · SHA-256 {file.sha256.slice(0, 12)}…
      </p>
      <Findings file={file} />
      <details style={{ marginTop: 8 }}>
        <summary>Show the file</summary>
        <div style={{ marginTop: 8 }}>
          <FileViewer requestId={request.id} file={file} checker={request.my_review_submitted !== null} />
        </div>
      </details>
      {others.length > 0 ? (
        <ul style={{ margin: '8px 0 0', paddingInlineStart: 20 }} aria-label={`Votes on ${file.name}`}>
          {others.map((v) => (
            <li key={v.reviewer.id}>
              {v.reviewer.name}: {v.vote === 'APPROVE' ? 'approve' : 'request changes'}
              {v.comment ? ` — ${v.comment}` : ''}
            </li>
          ))}
        </ul>
      ) : null}
      {file.kind === 'OUTPUT' ? <VoteControls request={request} file={file} /> : null}
    </article>
  );
}

/** The author's forms: a new group, and a file from their notebooks. */
function AuthorForms({ request }: { request: ReleaseRequest }) {
  const [addGroup, addingGroup] = useAddReleaseGroupMutation();
  const [addFile, addingFile] = useAddReleaseFileMutation();
  const candidates = useListOutputCandidatesQuery(request.workbench_id);
  const [groupForm] = Form.useForm<{ name: string; context: string; controls: string }>();
  const [fileForm] = Form.useForm<{ candidate: string; group_id: string; kind: 'OUTPUT' | 'SUPPORTING'; magnitude_column?: string }>();
  const options = (candidates.data?.files ?? []).map((f) => ({
    value: `${f.notebook_id}|${f.path}`,
    label: `${f.path} — ${f.notebook_name} (${formatSize(f.size_bytes)})${f.refusal ? `: ${f.refusal}` : ''}`,
    disabled: f.refusal !== null,
  }));
  return (
    <section style={PANEL} aria-labelledby="add-heading">
      <h2 id="add-heading" style={H2}>
        Add to the request
      </h2>
      <Flex gap={32} wrap align="start">
        <Form
          form={groupForm}
          layout="vertical"
          style={{ flex: '1 1 320px' }}
          onFinish={async (values) => {
            if (await addGroup({ requestId: request.id, ...values }).unwrap().catch(ignore)) groupForm.resetFields();
          }}
        >
          <h3 style={{ ...H3, marginBottom: 8 }}>A group of files</h3>
          <Form.Item name="name" label="Group name" rules={[{ required: true, whitespace: true, message: 'Name the group.' }]}>
            <Input />
          </Form.Item>
          <Form.Item name="context" label="Context: what these files are" rules={[{ required: true, min: 10, message: 'Say what the files are, in at least 10 characters.' }]}>
            <Input.TextArea rows={3} />
          </Form.Item>
          <Form.Item name="controls" label="Controls: what was done to make them safe" rules={[{ required: true, min: 10, message: 'Say what makes them safe, in at least 10 characters.' }]}>
            <Input.TextArea rows={3} />
          </Form.Item>
          <Button htmlType="submit" loading={addingGroup.isLoading}>
            Add group
          </Button>
        </Form>
        <Form
          form={fileForm}
          layout="vertical"
          style={{ flex: '1 1 320px' }}
          initialValues={{ kind: 'OUTPUT' }}
          onFinish={async ({ candidate, group_id, kind, magnitude_column }) => {
            const [notebook_id, ...rest] = candidate.split('|');
            const added = await addFile({ requestId: request.id, notebook_id: notebook_id!, path: rest.join('|'), group_id, kind, magnitude_column: magnitude_column?.trim() || null })
              .unwrap()
              .catch(ignore);
            if (added) {
              fileForm.resetFields(['candidate', 'magnitude_column']);
              showToast({ type: 'success', title: 'File added', description: 'Its automatic checks are running.' });
            }
          }}
        >
          <h3 style={{ ...H3, marginBottom: 8 }}>A file from your notebooks</h3>
          {request.groups.length === 0 ? <p style={MUTED}>Add a group first: every file belongs to one.</p> : null}
          <Form.Item name="candidate" label="File" rules={[{ required: true, message: 'Pick a file.' }]}>
            <Select
              showSearch
              options={options}
              loading={candidates.isFetching}
              placeholder={options.length === 0 ? 'No files in your notebooks yet' : 'Pick a file'}
              optionFilterProp="label"
              // Files appear while the page is open (written in a notebook): look again each time the list opens.
              onOpenChange={(open) => {
                if (open) void candidates.refetch();
              }}
            />
          </Form.Item>
          <Form.Item name="group_id" label="Group" rules={[{ required: true, message: 'Pick a group.' }]}>
            <Select options={request.groups.map((g) => ({ value: g.id, label: g.name }))} />
          </Form.Item>
          <Form.Item name="kind" label="Kind">
            <Radio.Group
              options={[
                { value: 'OUTPUT', label: 'Output (to be released)' },
                { value: 'SUPPORTING', label: 'Supporting (for the checkers only)' },
              ]}
            />
          </Form.Item>
          <Form.Item name="magnitude_column" label="Magnitude column (optional)" extra="A column of sums (costs, doses) checked for dominance; give each cell's largest contributions as <column>__max1 and <column>__max2.">
            <Input />
          </Form.Item>
          <Button htmlType="submit" type="primary" loading={addingFile.isLoading} disabled={request.groups.length === 0}>
            Add file
          </Button>
        </Form>
      </Flex>
    </section>
  );
}

function Comments({ request }: { request: ReleaseRequest }) {
  const [comment, commenting] = useCommentOnReleaseRequestMutation();
  const [form] = Form.useForm<{ body: string; visibility: 'PUBLIC' | 'PRIVATE' }>();
  const checker = request.my_review_submitted !== null;
  return (
    <section style={PANEL} aria-labelledby="comments-heading">
      <h2 id="comments-heading" style={H2}>
        Comments
      </h2>
      {request.comments.length === 0 ? <p style={MUTED}>No comments yet.</p> : null}
      <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {request.comments.map((c) => (
          <li key={c.id} style={{ borderBottom: '1px solid #f0f0f0', padding: '8px 0' }}>
            <strong>{c.author.name}</strong> <span style={MUTED}>· {formatDate(c.created_at)}{c.visibility === 'PRIVATE' ? ' · private to the checkers' : ''}</span>
            <p style={{ margin: '4px 0 0', whiteSpace: 'pre-line' }}>{c.body}</p>
          </li>
        ))}
      </ul>
      {request.abilities.comment ? (
        <Form
          form={form}
          layout="vertical"
          initialValues={{ visibility: 'PUBLIC' }}
          style={{ marginTop: 12 }}
          onFinish={async (values) => {
            if (await comment({ requestId: request.id, ...values }).unwrap().catch(ignore)) form.resetFields(['body']);
          }}
        >
          <Form.Item name="body" label="Your comment" rules={[{ required: true, whitespace: true, message: 'Write a comment.' }]}>
            <Input.TextArea rows={3} />
          </Form.Item>
          {checker ? (
            <Form.Item name="visibility" label="Who sees it">
              <Radio.Group options={[{ value: 'PUBLIC', label: 'The author too' }, { value: 'PRIVATE', label: 'Checkers only' }]} />
            </Form.Item>
          ) : null}
          <Button htmlType="submit" loading={commenting.isLoading}>
            Add comment
          </Button>
        </Form>
      ) : null}
    </section>
  );
}

const STEP_LABELS: Record<ReleaseStep, string> = {
  submit: 'Submit for review',
  withdraw: 'Withdraw',
  approve: 'Approve',
  return: 'Return to the author',
  reject: 'Reject',
  release: 'Release',
};

/** The buttons of what the caller may do now; return and reject ask why. */
function Actions({ request }: { request: ReleaseRequest }) {
  const [change, changing] = useChangeReleaseRequestMutation();
  const [review, reviewing] = useSubmitReleaseReviewMutation();
  const [download, downloading] = useDownloadReleasePackageMutation();
  const [asking, setAsking] = useState<'return' | 'reject' | null>(null);
  const [reason, setReason] = useState('');
  const pending = request.groups.some((g) => g.files.some((f) => f.checks.state === 'PENDING'));
  const run = (step: ReleaseStep, comment?: string) => void change({ requestId: request.id, step, comment }).unwrap().catch(ignore);
  const { abilities } = request;
  const steps = (['submit', 'approve', 'release'] as const).filter((s) => abilities[s]);
  return (
    <Flex gap={8} wrap>
      {steps.map((step) => (
        <Button
          key={step}
          type="primary"
          loading={changing.isLoading}
          disabled={step === 'submit' && pending}
          title={step === 'submit' && pending ? 'The automatic checks are still running.' : undefined}
          onClick={() => run(step)}
        >
          {request.state === 'RETURNED' && step === 'submit' ? 'Submit again' : STEP_LABELS[step]}
        </Button>
      ))}
      {abilities.review ? (
        <Button type="primary" loading={reviewing.isLoading} onClick={() => void review(request.id).unwrap().catch(ignore)}>
          Submit my review
        </Button>
      ) : null}
      {abilities.return ? <Button onClick={() => setAsking('return')}>{STEP_LABELS.return}</Button> : null}
      {abilities.reject ? (
        <Button danger onClick={() => setAsking('reject')}>
          {STEP_LABELS.reject}
        </Button>
      ) : null}
      {abilities.withdraw ? (
        <Button danger loading={changing.isLoading} onClick={() => run('withdraw')}>
          Withdraw
        </Button>
      ) : null}
      {abilities.download ? (
        <Button
          type="primary"
          loading={downloading.isLoading}
          onClick={async () => {
            const result = await download(request.id);
            if ('data' in result && typeof result.data === 'string') saveBlobUrl(result.data, `release-${request.id}.zip`);
          }}
        >
          Download the package
        </Button>
      ) : null}
      <Modal
        open={asking !== null}
        title={asking === 'return' ? 'Return the request to its author' : 'Reject the request'}
        okText={asking === 'return' ? 'Return' : 'Reject'}
        okButtonProps={{ danger: asking === 'reject', disabled: !reason.trim() }}
        onCancel={() => setAsking(null)}
        onOk={() => {
          run(asking!, reason.trim());
          setAsking(null);
          setReason('');
        }}
      >
        <label htmlFor="decision-reason">Tell the author why (they will see this)</label>
        <Input.TextArea id="decision-reason" rows={4} value={reason} onChange={(e) => setReason(e.target.value)} />
      </Modal>
    </Flex>
  );
}

/** One release request, for its author and members (build, submit, answer a return, download) or its checkers (vote, decide). */
export function ReleaseRequestView({ requestId }: { requestId: string }) {
  const [polling, setPolling] = useState(false);
  const query = useGetReleaseRequestQuery(requestId, { pollingInterval: polling ? CHECKS_POLL_MS : 0, skipPollingIfUnfocused: false });
  const request = query.data;
  const checking = request?.groups.some((g) => g.files.some((f) => f.checks.state === 'PENDING')) ?? false;
  if (checking !== polling) setPolling(checking);
  if (query.isLoading) return <p role="status">Loading the release request…</p>;
  if (!request) return <Alert type="error" showIcon title="This release request could not be loaded." description="It may not exist, or it is not yours to see." />;
  return (
    <>
      <section style={PANEL} aria-labelledby="request-heading">
        <Flex justify="space-between" align="start" wrap gap={12}>
          <div>
            <Flex align="center" gap={12} wrap>
              <h1 id="request-heading" style={{ fontSize: 24, fontWeight: 600, margin: 0, overflowWrap: 'anywhere' }}>
                {request.title}
              </h1>
              <RequestStateTag state={request.state} />
            </Flex>
            <p style={{ ...MUTED, margin: '4px 0 0' }}>
              Workbench {request.workbench_name} · by {request.author.name} · {request.reviews_in} of {request.required_reviews} reviews in
              {request.submitted_at ? ` · submitted ${formatDate(request.submitted_at)}` : ''}
            </p>
          </div>
          <Actions request={request} />
        </Flex>
        <Alert type="info" showIcon style={{ marginTop: 16 }} title="What happens next" description={<span data-testid="next-step">{request.next_step}</span>} />
      </section>
      {request.abilities.edit ? <AuthorForms request={request} /> : null}
      {request.groups.map((group) => (
        <section key={group.id} style={PANEL} aria-labelledby={`group-${group.id}`}>
          <h2 id={`group-${group.id}`} style={H2}>
            {group.name}
          </h2>
          <dl style={{ margin: 0 }}>
            <dt style={{ fontWeight: 600 }}>Context</dt>
            <dd style={{ margin: '0 0 8px', whiteSpace: 'pre-line' }}>{group.context}</dd>
            <dt style={{ fontWeight: 600 }}>Controls</dt>
            <dd style={{ margin: 0, whiteSpace: 'pre-line' }}>{group.controls}</dd>
          </dl>
          {group.files.length === 0 ? <p style={{ ...MUTED, marginTop: 12 }}>No files in this group yet.</p> : null}
          {group.files.map((file) => (
            <FileCard key={file.id} request={request} file={file} />
          ))}
        </section>
      ))}
      <Comments request={request} />
    </>
  );
}
