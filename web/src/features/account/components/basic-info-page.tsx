// 基础信息 (/zhzx/basic): the account as the shop knows it, with the business scope (经营范围)
// approved with its licences; the contact name and mobile (a new mobile needs the current
// password and a code sent to it: `ContactForm`), and the password (the old one first).
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import { Button, Card, Descriptions, Form, Input, Skeleton, Tag } from 'antd';
import { useUserBase } from '@/api/user';
import type { PasswordForm } from '@/api/types';
import { MemberLayout } from '@/components/member-layout';
import { fieldErrors } from '@/lib/field-errors';
import { businessScopeQuery, useRefresh, useResetPassword } from '../api';
import { ContactForm } from './contact-form';
import { useUi } from '@/lib/ui';

/** 经营范围: what the member may buy, as approved with its licences (`jyfw`). */
function BusinessScopeCard() {
  const scope = useQuery(businessScopeQuery());
  const data = scope.data;
  return (
    <Card size="small" title="经营范围" className="member-card" data-testid="business-scope">
      {!data ? (
        <Skeleton active paragraph={{ rows: 1 }} />
      ) : data.list.length > 0 ? (
        <>
          <div className="scope-tags">
            {data.list.map((item) => (
              <Tag key={item} color="green" data-testid="scope-item">
                {item}
              </Tag>
            ))}
          </div>
          {data.classes.some((entry) => entry.needs_licence === 1 && entry.allowed !== 1) && (
            <p className="muted" data-testid="scope-outside">
              不含：
              {data.classes
                .filter((entry) => entry.needs_licence === 1 && entry.allowed !== 1)
                .map((entry) => entry.name)
                .join('、')}
              （超出经营范围的商品不能采购）
            </p>
          )}
          <p className="hint">经营范围随资质证件审核核定；如需变更，请更新资质证件后联系专属客服。</p>
        </>
      ) : (
        <p className="muted">
          {data.is_passed === 1 ? '暂未核定经营范围，如有疑问请联系专属客服。' : '资质审核通过后将在此显示核定的经营范围。'}
          <Link to="/zhzx/zzzj">查看资质证件</Link>
        </p>
      )}
    </Card>
  );
}

export function BasicInfoPage() {
  // The header's own query of this route: a second request for the user state at the same time
  // would supersede (cancel) the first one in the API client.
  const user = useUserBase(true, useLocation().pathname);
  const refresh = useRefresh();
  const resetPassword = useResetPassword();
  const { message } = useUi();
  const [password] = Form.useForm();
  const member = user.data?.login ? user.data : undefined;

  const savePassword = async (values: PasswordForm) => {
    try {
      await resetPassword.mutateAsync(values);
      message.success('密码已修改');
      password.resetFields();
    } catch (error) {
      password.setFields(fieldErrors(error));
    }
  };

  return (
    <MemberLayout title="基础信息">
      {!member ? (
        <Skeleton active />
      ) : (
        <>
          <Descriptions bordered size="small" column={2} className="member-card">
            <Descriptions.Item label="账号">{member.username}</Descriptions.Item>
            <Descriptions.Item label="企业名称">{member.company}</Descriptions.Item>
            <Descriptions.Item label="会员等级">V{member.rank}</Descriptions.Item>
            <Descriptions.Item label="资质状态">
              {member.is_passed === 1 ? <Tag color="green">资质已通过</Tag> : <Tag color="orange">资质未通过</Tag>}
            </Descriptions.Item>
            <Descriptions.Item label="专属客服">{member.admin ? `${member.admin.name} ${member.admin.phone}` : '—'}</Descriptions.Item>
            <Descriptions.Item label="微信">{member.wechat || '未绑定'}</Descriptions.Item>
          </Descriptions>
          <BusinessScopeCard />
          <Card size="small" title="联系人信息" className="member-card">
            <ContactForm name={member.name ?? ''} phone={member.phone ?? ''} onSaved={refresh} />
          </Card>
          <Card size="small" title="修改密码" className="member-card">
            <Form
              form={password}
              layout="horizontal"
              labelCol={{ span: 4 }}
              wrapperCol={{ span: 10 }}
              onFinish={(values) => void savePassword(values)}
            >
              <Form.Item label="原密码" name="old_password" rules={[{ required: true, message: '请填写原密码' }]}>
                <Input.Password autoComplete="current-password" />
              </Form.Item>
              <Form.Item label="新密码" name="password" rules={[{ required: true, message: '请填写新密码' }]}>
                <Input.Password autoComplete="new-password" />
              </Form.Item>
              <Form.Item
                label="确认新密码"
                name="password_confirmation"
                dependencies={['password']}
                rules={[
                  { required: true, message: '请再次填写新密码' },
                  ({ getFieldValue }) => ({
                    validator: (_, value) =>
                      !value || value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error('两次输入的密码不一致')),
                  }),
                ]}
              >
                <Input.Password autoComplete="new-password" />
              </Form.Item>
              <Form.Item wrapperCol={{ offset: 4 }}>
                <Button type="primary" htmlType="submit">
                  修改密码
                </Button>
              </Form.Item>
            </Form>
          </Card>
        </>
      )}
    </MemberLayout>
  );
}
