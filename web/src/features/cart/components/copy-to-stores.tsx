// 复制到其他门店: the chosen cart lines copied into the carts of the other store accounts of the
// member's company (matched by the company's id on the server, never by its name). Each copy is
// an add to that store's cart; what an add refuses there (stock, a flash sale's limit) is listed
// with its reason, and the rest is copied.
import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Checkbox, Empty, Modal, Skeleton, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { companyQuery } from '@/api/account';
import { useCopyLines } from '@/api/cart';
import type { Copied } from '@/api/types';
import { useUi } from '@/lib/ui';

/** What the buyer is told after a copy: how many copies were made, and each one skipped with why. */
function copySummary(result: Copied, stores: number): string {
  const done = `已复制 ${result.copied} 项到 ${stores} 个门店账号`;
  return result.skipped.length ? `${done}，${result.skipped.length} 项未能复制` : done;
}

export function CopyToStores({ open, ids, onClose }: { open: boolean; ids: number[]; onClose: () => void }) {
  const { message, modal } = useUi();
  const [chosen, setChosen] = useState<number[]>([]);
  const copyLines = useCopyLines();
  const copying = copyLines.isPending;
  const company = useQuery({ ...companyQuery(), enabled: open });
  const others = company.data?.accounts.filter((account) => account.is_self !== 1) ?? [];
  const self = company.data?.accounts.find((account) => account.is_self === 1);

  const close = () => {
    setChosen([]);
    onClose();
  };
  const copy = async () => {
    if (!chosen.length || !ids.length) return;
    try {
      const result = await copyLines.mutateAsync({ ids, other_user_ids: chosen });
      if (result.skipped.length) {
        modal.warning({
          title: copySummary(result, chosen.length),
          content: (
            <ul className="copy-skipped" data-testid="copy-skipped">
              {result.skipped.map((skip) => (
                <li key={`${skip.id}-${skip.member_id}`}>
                  {skip.name} → {skip.username}：{skip.reason}
                </li>
              ))}
            </ul>
          ),
          okText: '知道了',
        });
      } else {
        message.success(copySummary(result, chosen.length));
      }
      close();
    } catch {
      // Told by the API client.
    }
  };

  return (
    <Modal
      open={open}
      title="复制到其他门店"
      okText="复制"
      cancelText="取消"
      onOk={() => void copy()}
      onCancel={close}
      okButtonProps={{ disabled: chosen.length === 0, loading: copying }}
      destroyOnHidden
    >
      <p>
        将选中的 <strong>{ids.length}</strong> 种商品按当前数量加入以下门店账号的购物车（与其购物车中已有的同一商品合并）。
      </p>
      {!company.data ? (
        <Skeleton active />
      ) : others.length === 0 ? (
        <Empty
          description={
            <span>
              本企业暂无其他门店账号。其他门店注册时选择“多店注册”并填写企业编码{' '}
              <strong data-testid="company-code">{company.data.code}</strong> 即可关联，详见<Link to="/zhzx/ddgl">多店管理</Link>。
            </span>
          }
        />
      ) : (
        <>
          {self?.is_passed !== 1 && <Alert type="warning" showIcon message="资质审核通过后方可复制到其他门店" />}
          <Checkbox.Group value={chosen} onChange={(values) => setChosen(values as number[])} className="copy-stores">
            {others.map((account) => (
              <Checkbox key={account.id} value={account.id} disabled={account.is_passed !== 1}>
                <span className="copy-store">
                  <strong>{account.company}</strong> <span className="muted">账号 {account.username}</span>{' '}
                  {account.is_passed !== 1 && <Tag color="orange">资质未通过，暂不能接收</Tag>}
                </span>
              </Checkbox>
            ))}
          </Checkbox.Group>
        </>
      )}
    </Modal>
  );
}
