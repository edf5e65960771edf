// 多店管理 (/zhzx/ddgl): the stores of a multi-store account, and the one its orders go to.
import { useState } from 'react';
import { Button, Form, Input, Modal, Popconfirm, Skeleton, Space, Table, Tag } from 'antd';
import { api } from '@/lib/api';
import type { Store, StoreList } from '@/api/types';
import { MemberLayout } from '@/features/member/components/member-layout';
import { fieldErrors } from '@/features/auth/api';
import { telephoneRule, useStores } from '../api';
import { useAction } from '../use-action';

export function StoresPage() {
  const stores = useStores();
  const act = useAction();
  const [editing, setEditing] = useState<{ store?: Store }>();
  const [form] = Form.useForm();

  const open = (store?: Store) => {
    form.resetFields();
    if (store) form.setFieldsValue(store);
    setEditing({ store });
  };
  const save = async (values: Record<string, string>) => {
    const store = editing?.store;
    const call = () =>
      store ? api.put<StoreList>(`/api/user/stores/${store.id}`, values) : api.post<StoreList>('/api/user/stores', values);
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
                    <a onClick={() => void act(() => api.post(`/api/user/stores/${store.id}/switch`), '已切换门店')}>切换为当前门店</a>
                  )}
                  <a onClick={() => open(store)}>编辑</a>
                  <Popconfirm
                    title="确定删除该门店吗?"
                    okText="确定"
                    cancelText="取消"
                    onConfirm={() => act(() => api.delete(`/api/user/stores/${store.id}`), '删除成功')}
                  >
                    <a>删除</a>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      )}
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
