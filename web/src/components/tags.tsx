// Goods tags, each label in its own colour (§9: 优 秒 满 换购 赠 特 新).
import { Tag as AntTag, Tooltip } from 'antd';
import type { Tag } from '@/api/types';

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
