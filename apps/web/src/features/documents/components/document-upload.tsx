import { InboxOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Progress, Upload } from 'antd';
import { UPLOAD_CAP_TEXT } from '@/lib/files/document-size';
import { useDocumentUpload } from '../hooks/use-document-upload';

/**
 * Drag and drop (or pick) one file to upload it, with its progress. Files over the cap are
 * refused before sending, with the cap named.
 */
export function DocumentUpload() {
  const { state, start, cancel, reset } = useDocumentUpload();
  const uploading = state.phase === 'uploading';

  return (
    <Flex vertical gap={12}>
      <Upload.Dragger
        name="file"
        multiple={false}
        showUploadList={false}
        disabled={uploading}
        beforeUpload={(file) => {
          void start(file);
          // The hook sends the file itself (with progress and the bearer token).
          return Upload.LIST_IGNORE;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined aria-hidden />
        </p>
        <p className="ant-upload-text">Drop a file here, or click to choose one</p>
        <p className="ant-upload-hint">One file at a time, up to {UPLOAD_CAP_TEXT}.</p>
      </Upload.Dragger>

      {state.phase === 'uploading' ? (
        <Flex align="center" gap={12} data-testid="upload-progress">
          <span style={{ whiteSpace: 'nowrap' }}>
            {state.percent < 100 ? `Uploading "${state.fileName}"` : `Checking "${state.fileName}"`}
          </span>
          <Progress percent={state.percent} status="active" aria-label={`Upload of ${state.fileName}`} style={{ flex: 1, margin: 0 }} />
          <Button size="small" onClick={cancel}>
            Cancel
          </Button>
        </Flex>
      ) : null}
      {state.phase === 'refused' ? (
        <Alert type="error" showIcon closable={{ onClose: reset, 'aria-label': 'Dismiss' }} role="alert" title={state.title} description={state.description} />
      ) : null}
      {state.phase === 'uploaded' ? (
        <Alert type="success" showIcon closable={{ onClose: reset, 'aria-label': 'Dismiss' }} role="status" title={`"${state.document.name}" was uploaded.`} />
      ) : null}
    </Flex>
  );
}
