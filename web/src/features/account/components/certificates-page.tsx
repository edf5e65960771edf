// 资质证件 (/zhzx/zzzj): the member's qualification certificates with their review, and an
// upload per kind (a JPEG, PNG or PDF scan); the member may order once the kinds its buyer type
// requires are approved, and not while one in force has expired (docs/compliance.md). What is
// missing and what expires within 30 days are said first.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert, Button, Card, DatePicker, Form, Input, Select, Skeleton, Table, Tag, Upload } from 'antd';
// The date pickers' calendar in Chinese (ConfigProvider's zh_CN names dayjs's zh-cn).
import 'dayjs/locale/zh-cn';
import type { UploadFile } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { Certificate } from '@/api/types';
import { MemberLayout } from '@/components/member-layout';
import { fieldErrors } from '@/lib/field-errors';
import { certificateForm, certificatesQuery, scanProblem, useRefresh, useUploadCertificate } from '../api';
import { useUi } from '@/lib/ui';

const STATUS_COLOURS = ['orange', 'green', 'red'];

interface UploadValues {
  kind: string;
  number: string;
  valid_from?: Dayjs | null;
  expires_on?: Dayjs | null;
  scope?: string;
}

export function CertificatesPage() {
  const certificates = useQuery(certificatesQuery());
  const refresh = useRefresh();
  const { message } = useUi();
  const [form] = Form.useForm();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const upload = useUploadCertificate();
  const sending = upload.isPending;
  const data = certificates.data;

  const send = async (values: UploadValues) => {
    const file = files[0]?.originFileObj;
    if (!file || !data) {
      message.error('请上传证件扫描件');
      return;
    }
    const problem = scanProblem(file, data.max_bytes);
    if (problem) {
      message.error(problem);
      return;
    }
    try {
      const body = certificateForm({
        kind: values.kind,
        number: values.number,
        valid_from: values.valid_from?.format('YYYY-MM-DD'),
        expires_on: values.expires_on?.format('YYYY-MM-DD'),
        scope: values.scope,
        file,
      });
      await upload.mutateAsync(body);
      message.success('上传成功，待审核');
      form.resetFields();
      setFiles([]);
      await refresh();
    } catch (error) {
      form.setFields(fieldErrors(error).filter((field) => field.name !== 'file'));
    }
  };

  return (
    <MemberLayout title="资质证件">
      {!data ? (
        <Skeleton active />
      ) : (
        <>
          <Alert
            className="member-alert"
            type={data.is_passed === 1 ? 'success' : 'warning'}
            showIcon
            data-testid="certificate-standing"
            message={
              data.is_passed === 1
                ? `资质已通过（${data.buyer_type_name}，必备证件：${data.required.join('、')}）。证件到期前请上传新证件。`
                : `${data.buyer_type_name}需上传并通过审核：${data.required.join('、')}。审核通过后方可下单。`
            }
            description={data.missing.length > 0 ? `尚缺：${data.missing.join('、')}` : undefined}
          />
          {data.expiring.map((item) => (
            <Alert
              key={item.kind}
              className="member-alert"
              type={item.days_left < 0 ? 'error' : 'warning'}
              showIcon
              data-testid="certificate-expiring"
              message={
                item.days_left < 0
                  ? `${item.kind}已于${item.expires_on}过期，暂不能下单。请上传新证件，审核通过后恢复下单。`
                  : `${item.kind}将于${item.expires_on}到期（还有${item.days_left}天），请及时上传新证件。`
              }
            />
          ))}
          <Table<Certificate>
            rowKey="id"
            size="middle"
            pagination={false}
            dataSource={data.list}
            data-testid="certificate-table"
            locale={{ emptyText: '还没有上传资质证件' }}
            columns={[
              { title: '证件类型', dataIndex: 'kind' },
              { title: '证件编号', dataIndex: 'number' },
              { title: '发证日期', dataIndex: 'valid_from', render: (date: string) => date || '—' },
              {
                title: '有效期至',
                dataIndex: 'expires_on',
                render: (date: string, row) => (
                  <>
                    {date || '长期'} {row.expired === 1 && <Tag color="red">已过期</Tag>}
                  </>
                ),
              },
              {
                title: '审核状态',
                dataIndex: 'status_name',
                render: (name: string, row) => (
                  <>
                    <Tag color={STATUS_COLOURS[row.status]}>{name}</Tag>
                    {row.reason && <span className="muted">{row.reason}</span>}
                  </>
                ),
              },
              {
                title: '扫描件',
                dataIndex: 'scan',
                render: (scan: string | null) =>
                  scan ? (
                    <a href={scan} target="_blank" rel="noopener">
                      查看
                    </a>
                  ) : (
                    '未上传'
                  ),
              },
            ]}
          />
          <Card size="small" title="上传证件" className="member-card upload-card">
            <Form form={form} layout="inline" onFinish={(values: UploadValues) => void send(values)} data-testid="certificate-form">
              <Form.Item name="kind" rules={[{ required: true, message: '请选择证件类型' }]}>
                <Select placeholder="证件类型" style={{ width: 180 }} options={data.kinds.map((kind) => ({ value: kind, label: kind }))} />
              </Form.Item>
              <Form.Item name="number" rules={[{ required: true, message: '请填写证件编号' }]}>
                <Input placeholder="证件编号" maxLength={50} aria-label="证件编号" />
              </Form.Item>
              <Form.Item name="valid_from">
                <DatePicker className="expiry-picker" placeholder="发证日期（选填）" aria-label="发证日期" />
              </Form.Item>
              <Form.Item name="expires_on">
                <DatePicker
                  className="expiry-picker"
                  placeholder="有效期至（长期不填）"
                  aria-label="有效期至"
                  disabledDate={(date) => date.isBefore(dayjs(), 'day')}
                />
              </Form.Item>
              <Form.Item name="scope">
                <Input placeholder="证载经营范围（选填）" maxLength={500} aria-label="证载经营范围" />
              </Form.Item>
              <Form.Item>
                <Upload
                  accept=".jpg,.jpeg,.png,.pdf"
                  maxCount={1}
                  fileList={files}
                  beforeUpload={() => false}
                  onChange={({ fileList }) => setFiles(fileList.slice(-1))}
                >
                  <Button>选择扫描件</Button>
                </Upload>
              </Form.Item>
              <Form.Item>
                <Button type="primary" htmlType="submit" loading={sending}>
                  上传
                </Button>
              </Form.Item>
            </Form>
            <p className="hint">
              支持JPG、PNG、PDF，单个文件不超过{Math.floor(data.max_bytes / 1024 / 1024)}MB；同类证件重新上传将替换原证件并重新审核。
            </p>
          </Card>
        </>
      )}
    </MemberLayout>
  );
}
