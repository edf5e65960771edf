// What a wholesale buyer reads on every goods before ordering: 中包装 and 件装, 批准文号, the
// flash sale's limit, the limits of goods under special control, and sales.
import type { Card } from '@/api/types';

export function PackFacts({ goods, inline = false }: { goods: Card; inline?: boolean }) {
  const facts = [
    goods.zbz > 1 ? `中包装 ${goods.zbz}${goods.bzdw}` : null,
    goods.jzl > 0 ? `件装 ${goods.jzl}${goods.bzdw}` : null,
    goods.pzwh ? `批准文号 ${goods.pzwh}` : null,
    goods.flash_sale ? `限购 ${goods.flash_sale.limit}${goods.bzdw}` : null,
    // Special control (含麻黄碱类复方制剂 …, docs/compliance.md).
    goods.control_per_order > 0 ? `特管药品 每单限购 ${goods.control_per_order}${goods.bzdw}` : null,
    goods.control_per_month > 0 ? `每月限购 ${goods.control_per_month}${goods.bzdw}` : null,
    `销量 ${goods.sales}`,
  ].filter((fact): fact is string => fact !== null);
  return (
    <div className={inline ? 'pack-facts inline' : 'pack-facts'} data-testid="pack-facts">
      {facts.map((fact) => (
        <span key={fact}>{fact}</span>
      ))}
    </div>
  );
}
