import { useEffect, useMemo } from 'react';
import { Form, Input, InputNumber, Modal, Select } from 'antd';
import type { Notebook, NotebookCreate } from '@hdp/contract';
import { NOTEBOOK_DEFAULTS, NOTEBOOK_LIMITS } from '@hdp/contract/notebook-lifecycle';
import { showToast } from '@/lib/errors/notifier';
import {
  useListAcceleratorTypesQuery,
  useListEnvironmentsQuery,
  useListMachineTypesQuery,
  useListWorkbenchZonesQuery,
} from '../api/compute-catalogue';
import { useCreateNotebookMutation } from '../api/create-notebook';

export interface CreateNotebookDialogProps {
  open: boolean;
  workbenchId: string;
  onClose: () => void;
  onCreated?: (notebook: Notebook) => void;
}

interface FormValues {
  name: string;
  environment?: string;
  zone: string;
  machine_type?: string;
  accelerator_type?: string | null;
  accelerator_count?: number | null;
}

/** The catalogue's default, else the spec's, else the first offered. */
function pickDefault<T extends { is_default: boolean }>(items: readonly T[] | undefined, key: (item: T) => string, preferred?: string): string | undefined {
  if (!items?.length) return undefined;
  const chosen = items.find((item) => key(item) === preferred) ?? items.find((item) => item.is_default) ?? items[0]!;
  return key(chosen);
}

/**
 * notebookCreate: a name and what to run it on, each picked from the workbench's compute
 * catalogue. A refusal is told by the error catalogue ('Notebook Creation Error.' with the API's
 * reason) and the dialog stays open with what was typed.
 */
export default function CreateNotebookDialog({ open, workbenchId, onClose, onCreated }: CreateNotebookDialogProps) {
  const [form] = Form.useForm<FormValues>();
  const zone = Form.useWatch('zone', form) ?? NOTEBOOK_DEFAULTS.zone;
  const acceleratorType = Form.useWatch('accelerator_type', form);
  const zones = useListWorkbenchZonesQuery(workbenchId, { skip: !open });
  const environments = useListEnvironmentsQuery(workbenchId, { skip: !open });
  const machineTypes = useListMachineTypesQuery({ workbenchId, zone }, { skip: !open });
  const accelerators = useListAcceleratorTypesQuery({ workbenchId, zone }, { skip: !open });
  const [createNotebook, creating] = useCreateNotebookMutation();

  const defaultEnvironment = pickDefault(environments.data?.environments, (environment) => environment.id);
  const defaultMachineType = pickDefault(machineTypes.data?.machine_types, (machine) => machine.name, NOTEBOOK_DEFAULTS.machineType);
  const acceleratorMax = useMemo(
    () => accelerators.data?.accelerator_types.find((accelerator) => accelerator.name === acceleratorType)?.max_count ?? NOTEBOOK_LIMITS.maxAcceleratorCount,
    [accelerators.data, acceleratorType],
  );

  // Defaults arrive with the catalogue; fill them in only where the user has not chosen yet.
  useEffect(() => {
    if (defaultEnvironment && !form.getFieldValue('environment')) form.setFieldValue('environment', defaultEnvironment);
  }, [defaultEnvironment, form]);
  useEffect(() => {
    const offered = machineTypes.data?.machine_types.map((machine) => machine.name) ?? [];
    if (defaultMachineType && !offered.includes(form.getFieldValue('machine_type'))) form.setFieldValue('machine_type', defaultMachineType);
  }, [defaultMachineType, machineTypes.data, form]);

  const submit = async (values: FormValues) => {
    const withAccelerator = Boolean(values.accelerator_type);
    const body: NotebookCreate = {
      name: values.name.trim(),
      environment: values.environment!,
      zone: values.zone,
      machine_type: values.machine_type!,
      accelerator_type: withAccelerator ? values.accelerator_type! : null,
      accelerator_count: withAccelerator ? (values.accelerator_count ?? 1) : 0,
    };
    try {
      const notebook = await createNotebook({ workbenchId, body }).unwrap();
      form.resetFields();
      onClose();
      showToast({ type: 'success', title: 'Notebook created', description: `${notebook.name} is being provisioned; it is ready when its status says Running.` });
      onCreated?.(notebook);
    } catch {
      // The error catalogue has told the user.
    }
  };

  return (
    <Modal
      open={open}
      title="Create a notebook"
      okText="Create notebook"
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={creating.isLoading}
      destroyOnHidden
      forceRender
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ name: '', zone: NOTEBOOK_DEFAULTS.zone, accelerator_type: null, accelerator_count: 1 }}
        onFinish={(values) => void submit(values)}
      >
        <Form.Item
          name="name"
          label="Name"
          rules={[
            { required: true, whitespace: true, message: 'Give the notebook a name.' },
            { max: NOTEBOOK_LIMITS.nameMaxLength, message: `Keep the name to ${NOTEBOOK_LIMITS.nameMaxLength} characters.` },
          ]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="environment" label="Environment" rules={[{ required: true, message: 'Choose an environment.' }]}>
          <Select
            loading={environments.isLoading}
            options={environments.data?.environments.map((environment) => ({ value: environment.id, label: environment.name }))}
          />
        </Form.Item>
        <Form.Item name="zone" label="Zone" rules={[{ required: true, message: 'Choose a zone.' }]}>
          <Select
            loading={zones.isLoading}
            options={zones.data?.zones.map((item) => ({ value: item.name, label: item.description ? `${item.name} (${item.description})` : item.name }))}
            onChange={() => form.setFieldsValue({ machine_type: undefined, accelerator_type: null })}
          />
        </Form.Item>
        <Form.Item name="machine_type" label="Machine type" rules={[{ required: true, message: 'Choose a machine type.' }]}>
          <Select
            loading={machineTypes.isFetching}
            options={machineTypes.data?.machine_types.map((machine) => ({
              value: machine.name,
              label: `${machine.name} (${machine.vcpus} vCPU, ${machine.memory_gb} GB)`,
            }))}
          />
        </Form.Item>
        <Form.Item name="accelerator_type" label="Accelerator type (optional)">
          <Select
            allowClear
            placeholder="None"
            loading={accelerators.isFetching}
            notFoundContent="No accelerators in this zone"
            options={accelerators.data?.accelerator_types.map((accelerator) => ({ value: accelerator.name, label: accelerator.description || accelerator.name }))}
          />
        </Form.Item>
        {acceleratorType ? (
          <Form.Item name="accelerator_count" label="Accelerator count" rules={[{ required: true, message: 'Say how many accelerators.' }]}>
            <InputNumber min={1} max={acceleratorMax} precision={0} />
          </Form.Item>
        ) : null}
      </Form>
    </Modal>
  );
}
