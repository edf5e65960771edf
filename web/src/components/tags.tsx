// Goods tags, each label in its own colour (§9: 优 秒 满 换购 赠 特 新), and the mark of how a
// medicine is dispensed (处方药, 甲类OTC, 乙类OTC) beside its name.
import { Tag as AntTag, Tooltip } from 'antd';
import type { Card, Tag } from '@/api/types';

const TAG_COLOURS: Record<string, string> = {
  优: '#11845b',
  秒: '#e4393c',
  满: '#fa8c16',
  换购: '#722ed1',
  赠: '#eb2f96',
  特: '#d4380d',
  新: '#1677ff',
};

function tagColour(name: string): string {
  return TAG_COLOURS[name] ?? '#8c8c8c';
}

export function GoodsTags({ tags }: { tags: Tag[] }) {
  const shown = tags.filter((tag) => tag.is_show !== 0);
  if (!shown.length) return null;
  return (
    <span className="goods-tags">
      {shown.map((tag) => (
        <Tooltip key={tag.name} title={tag.describe}>
          <AntTag color={tagColour(tag.name)} bordered={false} data-tag={tag.name}>
            {tag.name}
          </AntTag>
        </Tooltip>
      ))}
    </span>
  );
}

const DISPENSING: Record<string, { label: string; title: string; className: string }> = {
  处方药: { label: '处方药', title: '处方药：凭医师处方销售、购买和使用', className: 'dispensing rx' },
  甲类OTC: { label: 'OTC甲', title: '甲类非处方药', className: 'dispensing otc-a' },
  乙类OTC: { label: 'OTC乙', title: '乙类非处方药', className: 'dispensing otc-b' },
};

/** 处方药 / OTC甲 / OTC乙 beside a medicine's name; nothing for goods that are not medicines. */
export function DispensingMark({ goods }: { goods: Pick<Card, 'dispensing'> }) {
  const mark = DISPENSING[goods.dispensing];
  if (!mark) return null;
  return (
    <span className={mark.className} title={mark.title} data-testid="dispensing">
      {mark.label}
    </span>
  );
}
