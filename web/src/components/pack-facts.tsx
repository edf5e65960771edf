// What a wholesale buyer reads on every goods before ordering: 中包装 and 件装, 批准文号, the
// flash sale's limit, and sales.
import type { Card } from '@/api/types';

export function PackFacts({ goods, inline = false }: { goods: Card; inline?: boolean }) {
  const facts = [
    goods.zbz > 1 ? `中包装 ${goods.zbz}${goods.bzdw}` : null,
    goods.jzl > 0 ? `件装 ${goods.jzl}${goods.bzdw}` : null,
    goods.pzwh ? `批准文号 ${goods.pzwh}` : null,
    goods.flash_sale ? `限购 ${goods.flash_sale.limit}${goods.bzdw}` : null,
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
