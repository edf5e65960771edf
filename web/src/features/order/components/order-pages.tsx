// The order centre's pages (订单中心), loaded together.
export { OrderListPage } from './order-list-page';
export { OrderDetailPage } from './order-detail-page';
export { AfterSalesPage } from './after-sales-page';
export { ReturnPage } from './return-page';
export { InvoicesPage } from './invoices-page';
