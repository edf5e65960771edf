// 多店管理 (/zhzx/ddgl): the stores of a multi-store account, and the one its orders go to; the
// company the account belongs to, with its 企业编码 (what the chain's other stores give at
// multi-store registration to join it) and its store accounts, between which carts are copied.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Card, Form, Input, Modal, Popconfirm, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { companyQuery } from '@/api/account';
import type { CompanyAccount, Store, StoreForm } from '@/api/types';
import { MemberLayout } from '@/components/member-layout';
import { fieldErrors } from '@/lib/field-errors';
import { storesQuery, telephoneRule, useDeleteStore, useSaveStore, useSwitchStore } from '../api';
import { useAction } from '../use-action';

function CompanyCard() {
  const company = useQuery(companyQuery());
  const data = company.data;
  return (
    <Card size="small" title="本企业门店账号" className="member-card" data-testid="company-card">
      {!data ? (
        <Skeleton active />
      ) : (
        <>
          <p>
            企业编码：
            <Typography.Text strong copyable={{ text: data.code, tooltips: ['复制', '已复制'] }} data-testid="company-code">
              {data.code}
            </Typography.Text>
          </p>
          <p className="hint">
            本企业其他门店注册时选择“多店注册”并填写此编码，即与本账号关联为同一企业；资质审核通过的门店账号之间可在购物车中“复制到其他门店”。
          </p>
          <Table<CompanyAccount>
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={data.accounts}
            columns={[
              {
                title: '账号',
                dataIndex: 'username',
                render: (username: string, account) => (
                  <>
                    {username} {account.is_self === 1 && <Tag color="blue">本账号</Tag>}
                  </>
                ),
              },
              { title: '企业名称', dataIndex: 'company' },
              { title: '联系人', dataIndex: 'name' },
              {
                title: '资质',
                dataIndex: 'is_passed',
                render: (passed: number) => (passed === 1 ? <Tag color="green">已通过</Tag> : <Tag color="orange">未通过</Tag>),
              },
            ]}
          />
        </>
      )}
    </Card>
  );
}

export function StoresPage() {
  const stores = useQuery(storesQuery());
  const act = useAction();
  const saveStore = useSaveStore();
  const switchStore = useSwitchStore();
  const deleteStore = useDeleteStore();
  const [editing, setEditing] = useState<{ store?: Store }>();
  const [form] = Form.useForm();

  const open = (store?: Store) => {
    form.resetFields();
    if (store) form.setFieldsValue(store);
    setEditing({ store });
  };
  const save = async (values: StoreForm) => {
    const store = editing?.store;
    const call = () => saveStore.mutateAsync({ id: store?.id, form: values });
    if (await act(call, '保存成功', (error) => form.setFields(fieldErrors(error)))) setEditing(undefined);
  };

  const data = stores.data;
  return (
    <MemberLayout
      title="多店管理"
      extra={
        data && (
          <Button type="primary" onClick={() => open()} disabled={data.list.length >= data.max}>
            新增门店
          </Button>
        )
      }
    >
      <p className="hint">连锁企业可在此管理各门店；切换“当前门店”后，新订单将送往该门店。</p>
      {!data ? (
        <Skeleton active />
      ) : (
        <Table<Store>
          rowKey="id"
          size="middle"
          pagination={false}
          dataSource={data.list}
          locale={{ emptyText: '还没有门店' }}
          columns={[
            {
              title: '门店名称',
              dataIndex: 'name',
              render: (name: string, store) => (
                <>
                  {name} {store.is_current === 1 && <Tag color="blue">当前门店</Tag>}
                </>
              ),
            },
            { title: '联系人', dataIndex: 'contact' },
            { title: '电话', dataIndex: 'phone' },
            { title: '地址', dataIndex: 'address' },
            {
              title: '操作',
              key: 'actions',
              render: (_, store) => (
                <Space>
                  {store.is_current !== 1 && (
                    <a onClick={() => void act(() => switchStore.mutateAsync(store.id), '已切换门店')}>切换为当前门店</a>
                  )}
                  <a onClick={() => open(store)}>编辑</a>
                  <Popconfirm
                    title="确定删除该门店吗?"
                    okText="确定"
                    cancelText="取消"
                    onConfirm={() => act(() => deleteStore.mutateAsync(store.id), '删除成功')}
                  >
                    <a>删除</a>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      )}
      <CompanyCard />
      <Modal
        open={!!editing}
        title={editing?.store ? '编辑门店' : '新增门店'}
        okText="保存"
        cancelText="取消"
        onOk={() => form.submit()}
        onCancel={() => setEditing(undefined)}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={(values) => void save(values)}>
          <Form.Item label="门店名称" name="name" rules={[{ required: true, message: '请填写门店名称' }]}>
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item label="联系人" name="contact">
            <Input maxLength={30} />
          </Form.Item>
          <Form.Item label="电话" name="phone" rules={[telephoneRule]}>
            <Input maxLength={13} placeholder="手机号码或区号-座机号码" />
          </Form.Item>
          <Form.Item label="地址" name="address">
            <Input maxLength={200} />
          </Form.Item>
        </Form>
      </Modal>
    </MemberLayout>
  );
}
