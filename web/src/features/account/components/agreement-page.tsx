// 电子合同 (/dzht): the purchase agreement a member signs before the first order, with the
// seller's particulars from the shop's settings. The checkout sends the member here (code 459);
// once signed, the way back to the cart.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Button, Checkbox, Descriptions, Form, Input, Result, Skeleton } from 'antd';
import { formatTime } from '@/lib/time';
import { fieldErrors } from '@/lib/field-errors';
import { MemberLayout } from '@/components/member-layout';
import { agreementQuery, useRefresh, useSignAgreement } from '../api';
import { useUi } from '@/lib/ui';

/** The form as the page holds it: 同意 is a checkbox. */
interface SignValues {
  signer: string;
  agree: boolean;
}

export function AgreementPage() {
  const agreement = useQuery(agreementQuery());
  const refresh = useRefresh();
  const signAgreement = useSignAgreement();
  const { message } = useUi();
  const [form] = Form.useForm();

  const sign = async (values: SignValues) => {
    try {
      await signAgreement.mutateAsync({ signer: values.signer, agree: values.agree ? '1' : '0' });
      message.success('签署成功');
      await refresh();
    } catch (error) {
      form.setFields(fieldErrors(error));
    }
  };

  const data = agreement.data;
  return (
    <MemberLayout title="电子合同">
      {!data ? (
        <Skeleton active />
      ) : (
        <div className="agreement" data-testid="agreement">
          <h2 className="agreement-title">{data.title}</h2>
          <Descriptions size="small" column={2} className="member-card">
            <Descriptions.Item label="卖方（甲方）">{data.seller}</Descriptions.Item>
            <Descriptions.Item label="买方（乙方）">{data.buyer}</Descriptions.Item>
            <Descriptions.Item label="统一社会信用代码">{data.shop.credit_code}</Descriptions.Item>
            <Descriptions.Item label="药品经营许可证">{data.shop.drug_licence}</Descriptions.Item>
            <Descriptions.Item label="卖方地址">{data.shop.address}</Descriptions.Item>
            <Descriptions.Item label="客服热线">{data.shop.hot_line}</Descriptions.Item>
          </Descriptions>
          <ol className="agreement-clauses">
            {data.clauses.map((clause) => (
              <li key={clause}>{clause}</li>
            ))}
          </ol>
          {data.signed === 1 ? (
            <Result
              status="success"
              title="电子合同已签署"
              subTitle={data.signed_at > 0 ? `签署人：${data.signer || '—'} · 签署时间：${formatTime(data.signed_at)}` : undefined}
              extra={[
                <Link key="cart" to="/cart">
                  <Button type="primary">返回购物车</Button>
                </Link>,
                <Link key="user" to="/user">
                  <Button>会员中心</Button>
                </Link>,
              ]}
            />
          ) : (
            <Form form={form} layout="inline" className="agreement-sign" onFinish={(values) => void sign(values)}>
              <Form.Item
                name="agree"
                valuePropName="checked"
                rules={[{ validator: (_, value) => (value ? Promise.resolve() : Promise.reject(new Error('请阅读并同意电子合同'))) }]}
              >
                <Checkbox>我已阅读并同意《{data.title}》</Checkbox>
              </Form.Item>
              <Form.Item name="signer" label="签署人" rules={[{ required: true, whitespace: true, message: '请填写签署人' }]}>
                <Input maxLength={30} placeholder="签署人姓名" />
              </Form.Item>
              <Form.Item>
                <Button type="primary" htmlType="submit">
                  同意并签署
                </Button>
              </Form.Item>
            </Form>
          )}
        </div>
      )}
    </MemberLayout>
  );
}
