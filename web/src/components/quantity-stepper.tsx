// A quantity with － and ＋ that step by the goods' middle pack (中包装) where it has one; the
// field takes any whole number from 1 to the most that can be bought.
import { Button, InputNumber, Space } from 'antd';
import { MinusOutlined, PlusOutlined } from '@ant-design/icons';
import { stepped } from '@/lib/quantity';

interface Props {
  value: number;
  onChange: (value: number) => void;
  /** 中包装: what ＋ and － add or take (1: one unit). */
  step?: number;
  max?: number;
  label: string;
  size?: 'small' | 'middle' | 'large';
  disabled?: boolean;
}

export function QuantityStepper({ value, onChange, step = 1, max, label, size = 'middle', disabled = false }: Props) {
  const top = max === undefined ? Number.MAX_SAFE_INTEGER : Math.max(1, max);
  return (
    <Space.Compact size={size} className="quantity-stepper">
      <Button
        icon={<MinusOutlined />}
        aria-label={`减少 ${label}`}
        disabled={disabled || value <= 1}
        onClick={() => onChange(stepped(value, step, false, top))}
      />
      <InputNumber
        min={1}
        max={top}
        value={value}
        controls={false}
        onChange={(next) => next !== null && onChange(Math.min(Math.max(1, Math.floor(Number(next))), top))}
        aria-label={`${label} 数量`}
        disabled={disabled}
        data-testid="number-input"
      />
      <Button
        icon={<PlusOutlined />}
        aria-label={`增加 ${label}`}
        disabled={disabled || value >= top}
        onClick={() => onChange(stepped(value, step, true, top))}
      />
    </Space.Compact>
  );
}
