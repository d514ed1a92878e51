import { Alert, Button, Form, Input } from 'antd';
import { LIMITS } from '@hdp/contract/limits';
import { loadPasswordJudge } from '../password-strength';
import { PasswordStrengthMeter } from './password-strength-meter';

interface Values {
  password: string;
  confirm: string;
}

/** The password a local account is created with: typed twice, judged as the API judges it, with a strength meter. */
export default function LocalPasswordForm({
  email,
  name,
  submitting,
  refusal,
  onSubmit,
}: {
  email: string;
  name: string | null;
  submitting: boolean;
  refusal: string | null;
  onSubmit: (password: string) => void;
}) {
  const [form] = Form.useForm<Values>();
  const password = Form.useWatch('password', form) ?? '';
  return (
    <Form<Values> form={form} layout="vertical" style={{ width: '100%' }} onFinish={({ password }) => onSubmit(password)} requiredMark={false}>
      {refusal ? <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} /> : null}
      {/* Lets password managers store the new password under the right account. */}
      <input type="hidden" name="username" autoComplete="username" value={email} readOnly />
      <Form.Item
        name="password"
        label="New password"
        extra={`${LIMITS.passwordMinLength} to ${LIMITS.passwordMaxLength} characters. A few unrelated words make a strong one.`}
        rules={[
          { required: true, message: 'Choose a password.' },
          { min: LIMITS.passwordMinLength, message: `Use at least ${LIMITS.passwordMinLength} characters.` },
          { max: LIMITS.passwordMaxLength, message: `Use at most ${LIMITS.passwordMaxLength} characters.` },
          {
            // The API's own rule: a password it would refuse is not sent.
            validator: async (_, value: string) => {
              if (!value || value.length < LIMITS.passwordMinLength || value.length > LIMITS.passwordMaxLength) return;
              const { problem } = (await loadPasswordJudge())(value, { email, name });
              if (problem) throw new Error(`This password ${problem}`);
            },
          },
        ]}
        style={{ marginBottom: 8 }}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <PasswordStrengthMeter password={password} email={email} name={name} />
      <Form.Item
        name="confirm"
        label="Confirm password"
        dependencies={['password']}
        rules={[
          { required: true, message: 'Type the password again.' },
          ({ getFieldValue }) => ({
            validator: async (_, value: string) => {
              if (value && value !== getFieldValue('password')) throw new Error('The passwords do not match.');
            },
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={submitting}>
        Set password and activate account
      </Button>
    </Form>
  );
}
