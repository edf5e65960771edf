// 余额充值: a tier of `GET /api/moneys/moneyConfig` (pay 1,000 get 20) or an amount of the
// member's, paid online (`POST /api/cash_coupon/userRecharge`); the balance is credited when the
// payment provider confirms the payment, and the page then shows it.
import { useState } from 'react';
import { Button, Card, Input, Radio, Skeleton } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { positive, yuan } from '@/lib/money';
import { OnlinePayment } from '@/components/online-payment';
import type { PaymentStarted, RechargeForm } from '@/api/types';
import { keys } from '@/lib/query-keys';
import { moneyConfigQuery, useStartRecharge } from '../api';
import { useUi } from '@/lib/ui';

export function Recharge() {
  const { message } = useUi();
  const client = useQueryClient();
  const config = useQuery(moneyConfigQuery());
  const startRecharge = useStartRecharge();
  const [tier, setTier] = useState<number | 'custom'>();
  const [amount, setAmount] = useState('');
  const [payment, setPayment] = useState<PaymentStarted>();

  if (!config.data) return <Skeleton active />;
  const chosen = tier ?? config.data.tiers[0]?.id ?? 'custom';

  const start = async () => {
    try {
      const body: RechargeForm = chosen === 'custom' ? { amount } : { money_config_id: chosen };
      setPayment(await startRecharge.mutateAsync(body));
    } catch {
      // Told by the API client.
    }
  };

  const paid = async () => {
    message.success('充值成功');
    setPayment(undefined);
    await client.invalidateQueries({ queryKey: keys.wallet.all });
  };

  return (
    <Card size="small" title="余额充值" className="recharge" data-testid="recharge">
      {payment ? (
        <OnlinePayment payment={payment} onSettled={() => void paid()} onCancel={() => setPayment(undefined)} />
      ) : (
        <>
          <Radio.Group value={chosen} onChange={(event) => setTier(event.target.value)} className="recharge-tiers">
            {config.data.tiers.map((item) => (
              <Radio.Button key={item.id} value={item.id}>
                充{yuan(item.amount)}
                {positive(item.bonus) && <span className="muted"> 送{yuan(item.bonus)}</span>}
              </Radio.Button>
            ))}
            <Radio.Button value="custom">其他金额</Radio.Button>
          </Radio.Group>
          {chosen === 'custom' && (
            <Input
              className="recharge-amount"
              prefix="¥"
              value={amount}
              onChange={(event) => setAmount(event.target.value.trim())}
              placeholder={`${config.data.min_amount} - ${config.data.max_amount}`}
              aria-label="充值金额"
              style={{ width: 240, marginBottom: 12 }}
            />
          )}
          <div>
            <Button type="primary" loading={startRecharge.isPending} onClick={() => void start()}>
              立即充值
            </Button>
          </div>
        </>
      )}
    </Card>
  );
}
