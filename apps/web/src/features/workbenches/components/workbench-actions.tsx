import { EditOutlined } from '@ant-design/icons';
import { useRouter } from 'next/router';
import { Button, Flex, Popconfirm } from 'antd';
import type { Workbench } from '@hdp/contract';
import { showToast } from '@/lib/errors/notifier';
import { useDeleteWorkbenchMutation } from '../api/delete-workbench';

/** Edit and Delete, for the owners of a workbench and administrators. Delete asks first; a refusal is worded by the error catalogue. */
export function WorkbenchActions({ workbench }: { workbench: Workbench }) {
  const router = useRouter();
  const [deleteWorkbench, deletion] = useDeleteWorkbenchMutation();
  return (
    <Flex gap={8} wrap>
      <Button icon={<EditOutlined aria-hidden />} onClick={() => void router.push(`/workbenches/${workbench.id}/edit`)}>
        Edit
      </Button>
      <Popconfirm
        title="Delete this workbench?"
        description="Its data, documents and files are removed for good, and its members lose access at once."
        okText="Delete"
        okButtonProps={{ danger: true }}
        cancelText="Keep it"
        onConfirm={async () => {
          try {
            await deleteWorkbench(workbench.id).unwrap();
            showToast({ type: 'success', title: 'Workbench deleted' });
            void router.push('/workbenches');
          } catch {
            // The error catalogue says why ('Error! Unable to delete workbench.' with the API's reason).
          }
        }}
      >
        <Button danger loading={deletion.isLoading}>
          Delete
        </Button>
      </Popconfirm>
    </Flex>
  );
}
