// A member's page: standing and business scope; each certificate with its scan beside the
// review (approve with the business scope, reject with a reason the member reads); the
// controlled-sales application; the latest orders and balance movements.
import { useState } from 'react';
import { Button, Card, Checkbox, Col, Descriptions, Empty, Input, Row, Space, Spin, Table, Tag, Typography } from 'antd';
import { Link, useParams } from 'react-router';
import { formatTime } from '@/lib/time';
import {
  BUYER_TYPES,
  can,
  ORDER_STATUS,
  REVIEW_STATUS,
  useMember,
  useReviewCertificate,
  useReviewControlledSales,
  type CertificateRow,
  type MemberPage,
  type OperatorMe,
} from './api';
import { Money } from './console';
import { GiftCard } from './gifts';

const REVIEW_COLORS = ['orange', 'green', 'red'];

function Scan({ certificate }: { certificate: CertificateRow }) {
  const url = `/api/admin/certificates/${certificate.id}/scan`;
  if (!certificate.file_type) return <Empty description="未上传扫描件" />;
  if (certificate.file_type === 'application/pdf') {
    return <iframe title={`${certificate.kind}扫描件`} src={url} style={{ width: '100%', height: 360, border: '1px solid #eee' }} />;
  }
  return (
    <a href={url} target="_blank" rel="noreferrer">
      <img alt={`${certificate.kind}扫描件`} src={url} style={{ maxWidth: '100%', maxHeight: 360, border: '1px solid #eee' }} />
    </a>
  );
}

function Review({ certificate, page, mayReview }: { certificate: CertificateRow; page: MemberPage; mayReview: boolean }) {
  const [scope, setScope] = useState<string[]>(() => page.scope.filter((entry) => entry.held).map((entry) => entry.name));
  const [reason, setReason] = useState('');
  const review = useReviewCertificate();
  const pending = certificate.status === 0;
  return (
    <Card
      size="small"
      className="console-cards"
      data-testid="certificate-card"
      title={`${certificate.kind} ${certificate.number}`}
      extra={<Tag color={REVIEW_COLORS[certificate.status]}>{REVIEW_STATUS[certificate.status]}</Tag>}
    >
      <Row gutter={16}>
        <Col span={12}>
          <Scan certificate={certificate} />
        </Col>
        <Col span={12}>
          <Descriptions column={1} size="small">
            <Descriptions.Item label="有效期">
              {certificate.valid_from || '—'} 至 {certificate.expires_on || '长期'}
            </Descriptions.Item>
            <Descriptions.Item label="证载范围">{certificate.scope || '—'}</Descriptions.Item>
            <Descriptions.Item label="上传时间">{formatTime(certificate.created_at)}</Descriptions.Item>
            {certificate.reason && <Descriptions.Item label="驳回原因">{certificate.reason}</Descriptions.Item>}
          </Descriptions>
          {mayReview && pending && (
            <Space direction="vertical" style={{ width: '100%' }}>
              <Typography.Text strong>核准经营范围</Typography.Text>
              <Checkbox.Group
                aria-label="核准经营范围"
                value={scope}
                onChange={(values) => setScope(values as string[])}
                options={page.scope.filter((entry) => entry.needs_licence).map((entry) => ({ value: entry.name, label: entry.name }))}
              />
              <Button type="primary" loading={review.isPending} onClick={() => review.mutate({ id: certificate.id, approve: true, scope })}>
                通过
              </Button>
              <Input.TextArea
                aria-label="驳回原因"
                rows={2}
                maxLength={200}
                placeholder="驳回原因，会员将看到"
                value={reason}
                onChange={(event) => setReason(event.target.value)}
              />
              <Button
                danger
                disabled={reason.trim() === ''}
                loading={review.isPending}
                onClick={() => review.mutate({ id: certificate.id, approve: false, reason: reason.trim() })}
              >
                驳回
              </Button>
            </Space>
          )}
        </Col>
      </Row>
    </Card>
  );
}

function ControlledSales({ page, mayReview }: { page: MemberPage; mayReview: boolean }) {
  const review = useReviewControlledSales(page.member.id);
  const [reason, setReason] = useState('');
  if (page.controlled_sales === null) return <Typography.Text type="secondary">未申请</Typography.Text>;
  return (
    <Space wrap>
      <Tag color={REVIEW_COLORS[page.controlled_sales]}>{REVIEW_STATUS[page.controlled_sales]}</Tag>
      {page.controlled_sales_reason && <Typography.Text type="secondary">{page.controlled_sales_reason}</Typography.Text>}
      {mayReview && page.controlled_sales !== 1 && (
        <Button size="small" type="primary" onClick={() => review.mutate({ approve: true })}>
          通过
        </Button>
      )}
      {mayReview && page.controlled_sales !== 2 && (
        <>
          <Input
            size="small"
            aria-label="控销驳回原因"
            placeholder="驳回原因"
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            style={{ width: 200 }}
          />
          <Button
            size="small"
            danger
            disabled={reason.trim() === ''}
            onClick={() => review.mutate({ approve: false, reason: reason.trim() })}
          >
            驳回
          </Button>
        </>
      )}
    </Space>
  );
}

export function MemberPageView({ me }: { me: OperatorMe }) {
  const id = Number(useParams().id);
  const { data, isPending } = useMember(id);
  if (isPending) return <Spin />;
  if (!data) return <Empty description="会员不存在" />;
  const { member } = data;
  const mayReview = can(me, 'review_members');
  const held = data.scope.filter((entry) => entry.held).map((entry) => entry.name);
  return (
    <div data-testid="admin-member">
      <Card
        title={member.company || member.username}
        className="console-cards"
        extra={member.is_passed === 1 ? <Tag color="green">资质已通过</Tag> : <Tag>资质未通过</Tag>}
      >
        <Descriptions column={3} size="small">
          <Descriptions.Item label="账号">{member.username}</Descriptions.Item>
          <Descriptions.Item label="联系人">
            {member.name} {member.phone}
          </Descriptions.Item>
          <Descriptions.Item label="类型">{BUYER_TYPES[member.buyer_type] ?? '—'}</Descriptions.Item>
          <Descriptions.Item label="余额">
            <Money value={member.balance} />
          </Descriptions.Item>
          <Descriptions.Item label="红包">
            <Money value={data.red_packet_balance} />
          </Descriptions.Item>
          <Descriptions.Item label="积分">{member.points}</Descriptions.Item>
          <Descriptions.Item label="经营范围" span={3}>
            <span data-testid="member-scope">{held.length > 0 ? held.join('、') : '未核准'}</span>
          </Descriptions.Item>
          <Descriptions.Item label="控销" span={3}>
            <ControlledSales page={data} mayReview={mayReview} />
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <GiftCard member={member.id} me={me} />
      <Card title="资质证件" className="console-cards">
        {data.certificates.length === 0 ? (
          <Empty description="尚未上传" />
        ) : (
          data.certificates.map((certificate) => (
            <Review key={`${certificate.id}-${certificate.status}`} certificate={certificate} page={data} mayReview={mayReview} />
          ))
        )}
      </Card>
      <Row gutter={16}>
        <Col span={12}>
          <Card title="最近订单">
            <Table
              size="small"
              rowKey="id"
              pagination={false}
              dataSource={data.orders}
              columns={[
                { title: '订单号', dataIndex: 'order_no', render: (no: string) => <Link to={`/admin/orders/${no}`}>{no}</Link> },
                { title: '状态', dataIndex: 'status', render: (status: number) => ORDER_STATUS[status] },
                { title: '金额', dataIndex: 'payable', align: 'right', render: (value: string) => <Money value={value} /> },
                { title: '时间', dataIndex: 'created_at', render: (at: number) => formatTime(at) },
              ]}
            />
          </Card>
        </Col>
        <Col span={12}>
          <Card title="余额明细">
            <Table
              size="small"
              rowKey="id"
              pagination={false}
              dataSource={data.balance_moves}
              columns={[
                { title: '金额', dataIndex: 'amount', align: 'right', render: (value: string) => <Money value={value} /> },
                { title: '余额', dataIndex: 'balance_after', align: 'right', render: (value: string) => <Money value={value} /> },
                { title: '说明', dataIndex: 'note' },
                { title: '时间', dataIndex: 'created_at', render: (at: number) => formatTime(at) },
              ]}
            />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
