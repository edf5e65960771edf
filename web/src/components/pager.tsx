// The pager under a list of the shop's: shown only when there is more than one page.
import { Pagination } from 'antd';

export function Pager({
  total,
  page,
  pageSize,
  onChange,
}: {
  total: number;
  page: number;
  pageSize: number;
  onChange: (page: number) => void;
}) {
  if (total <= pageSize) return null;
  return <Pagination className="pager" current={page} pageSize={pageSize} total={total} onChange={onChange} showSizeChanger={false} />;
}
