// 收货地址 (/zhzx/addr): the address book, the default first; add, edit, make default, delete.
// The checkout offers these addresses.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Card, Checkbox, Empty, Form, Input, Modal, Popconfirm, Skeleton, Space, Tag } from 'antd';
import { addressesQuery } from '@/api/account';
import type { Address, AddressForm } from '@/api/types';

/** The form as the page holds it: 设为默认 is a checkbox. */
type AddressValues = Omit<AddressForm, 'is_default'> & { is_default?: boolean };
import { MemberLayout } from '@/components/member-layout';
import { fieldErrors } from '@/lib/field-errors';
import { telephoneRule, useDeleteAddress, useSaveAddress, useSetDefaultAddress } from '../api';
import { useAction } from '../use-action';

type Editing = { address?: Address } | undefined;

export function AddressesPage() {
  const addresses = useQuery(addressesQuery());
  const act = useAction();
  const saveAddress = useSaveAddress();
  const setDefault = useSetDefaultAddress();
  const deleteAddress = useDeleteAddress();
  const [editing, setEditing] = useState<Editing>();
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm();

  const open = (address?: Address) => {
    form.resetFields();
    if (address) form.setFieldsValue({ ...address, is_default: address.is_default === 1 });
    setEditing({ address });
  };
  const save = async (values: AddressValues) => {
    setSaving(true);
    const body: AddressForm = { ...values, is_default: values.is_default ? 1 : 0 };
    const address = editing?.address;
    const call = () => saveAddress.mutateAsync({ id: address?.id, form: body });
    if (await act(call, '保存成功', (error) => form.setFields(fieldErrors(error)))) setEditing(undefined);
    setSaving(false);
  };

  const data = addresses.data;
  return (
    <MemberLayout
      title="收货地址"
      extra={
        data && (
          <Button type="primary" onClick={() => open()} disabled={data.list.length >= data.max}>
            新增收货地址（{data.list.length}/{data.max}）
          </Button>
        )
      }
    >
      {!data ? (
        <Skeleton active />
      ) : data.list.length === 0 ? (
        <Empty description="还没有收货地址，请新增" />
      ) : (
        <div className="address-grid" data-testid="address-list">
          {data.list.map((address) => (
            <Card
              key={address.id}
              size="small"
              className={address.is_default === 1 ? 'address-card default' : 'address-card'}
              data-testid="address-card"
            >
              <div className="address-head">
                <strong>{address.contact}</strong> {address.phone} {address.is_default === 1 && <Tag color="red">默认</Tag>}
              </div>
              <div className="address-line">
                {address.province}
                {address.city}
                {address.district}
                {address.detail}
              </div>
              <Space className="address-actions">
                <a onClick={() => open(address)}>编辑</a>
                {address.is_default !== 1 && (
                  <a onClick={() => void act(() => setDefault.mutateAsync(address.id), '已设为默认地址')}>设为默认</a>
                )}
                <Popconfirm
                  title="确定删除该地址吗?"
                  okText="确定"
                  cancelText="取消"
                  onConfirm={() => act(() => deleteAddress.mutateAsync(address.id), '删除成功')}
                >
                  <a>删除</a>
                </Popconfirm>
              </Space>
            </Card>
          ))}
        </div>
      )}
      <Modal
        open={!!editing}
        title={editing?.address ? '编辑收货地址' : '新增收货地址'}
        okText="保存"
        cancelText="取消"
        confirmLoading={saving}
        onOk={() => form.submit()}
        onCancel={() => setEditing(undefined)}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={(values) => void save(values)} data-testid="address-form">
          <div className="form-row">
            <Form.Item label="收货人" name="contact" rules={[{ required: true, message: '请填写收货人' }]} style={{ flex: 1 }}>
              <Input maxLength={30} />
            </Form.Item>
            <Form.Item
              label="联系电话"
              name="phone"
              rules={[{ required: true, message: '请填写联系电话' }, telephoneRule]}
              style={{ flex: 1 }}
            >
              <Input maxLength={13} placeholder="手机号码或区号-座机号码" />
            </Form.Item>
          </div>
          <div className="form-row">
            <Form.Item label="省份" name="province" rules={[{ required: true, message: '请填写省份' }]} style={{ flex: 1 }}>
              <Input maxLength={20} />
            </Form.Item>
            <Form.Item label="城市" name="city" rules={[{ required: true, message: '请填写城市' }]} style={{ flex: 1 }}>
              <Input maxLength={20} />
            </Form.Item>
            <Form.Item label="区县" name="district" rules={[{ required: true, message: '请填写区县' }]} style={{ flex: 1 }}>
              <Input maxLength={20} />
            </Form.Item>
          </div>
          <Form.Item label="详细地址" name="detail" rules={[{ required: true, message: '请填写详细地址' }]}>
            <Input maxLength={120} />
          </Form.Item>
          <Form.Item name="is_default" valuePropName="checked">
            <Checkbox>设为默认地址</Checkbox>
          </Form.Item>
        </Form>
      </Modal>
    </MemberLayout>
  );
}
