// The promotion pages, loaded together: the coupon centre, the points mall and its orders.
export { CouponCentrePage } from './coupon-centre-page';
export { PointsMallPage } from './points-mall-page';
export { PointsOrdersPage } from './points-orders-page';
