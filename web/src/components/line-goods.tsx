// How a cart or order line names what it sells: a set as the set (see `line-facts.ts`).
import { Tag } from 'antd';
import type { LineFacts } from './line-facts';

/** The line's name with its specification; a set's name with 组合 and its contents below. */
export function LineGoodsName({ facts }: { facts: LineFacts }) {
  if (facts.isSet) {
    return (
      <span className="line-goods set" data-testid="set-line">
        <Tag color="purple">组合</Tag>
        {facts.name}
        <span className="muted set-contents" data-testid="set-contents">
          含：{facts.spec}
        </span>
      </span>
    );
  }
  return (
    <span className="line-goods">
      {facts.name} <span className="muted">{facts.spec}</span>
    </span>
  );
}
