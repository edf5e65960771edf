//! The return's rules on made-up orders: lines read and refused, states left only as the
//! steps allow, and the refunds cut to the cent.

use super::*;

fn order(points_used: i64, points_value: i64, points_earned: i64, refunded: i64, due: i64) -> OrderFacts {
    OrderFacts {
        id: 1,
        member_id: 1,
        order_no: "D1".into(),
        status: OrderStatus::Done,
        points_used,
        points_value,
        points_earned,
        due,
        return_open: 0,
        refunded,
        cashback: 0,
        cashback_activity_id: 0,
        cashback_tiers: Vec::new(),
    }
}

/// Points held: more than any of these orders earned.
const PLENTY: i64 = 1_000_000;

fn line(id: i64, number: i64, paid: i64, red_packet: i64, points: i64) -> LineFacts {
    LineFacts { id, name: format!("goods {id}"), number, paid, red_packet, points, returned: 0, points_back_value: 0, shipped: number }
}

/// A return that leaves the order below its cash-back tier takes the difference out of its
/// refund; one that keeps the tier takes nothing.
#[test]
fn cash_back_the_order_no_longer_earns_comes_out_of_the_refund() {
    // Two lines of 600.00 and 500.00 paid; 满1000返20 held.
    let mut order = order(0, 0, 0, 0, 11_000_000);
    order.cashback = 200_000;
    order.cashback_tiers = vec![(10_000_000, 200_000)];
    let lines = vec![line(1, 10, 6_000_000, 0, 0), line(2, 10, 5_000_000, 0, 0)];
    let kept = compute(&order, &lines, &[Wanted { item: 2, number: 2, lot: None }], PLENTY, 100).unwrap().unwrap();
    assert_eq!((kept.refund, kept.cashback_taken), (1_000_000, 0), "1000.00 left: the tier holds");
    let below = compute(&order, &lines, &[Wanted { item: 2, number: 3, lot: None }], PLENTY, 100).unwrap().unwrap();
    assert_eq!((below.refund, below.cashback_taken), (1_500_000, 200_000), "950.00 left: the 20.00 goes back");
}

/// A return that loses the cash back and takes back more earned points than are held never
/// takes more than it refunds: the quote says what the receive will pay.
#[test]
fn cash_back_and_spent_points_never_take_more_than_the_refund() {
    let mut order = order(0, 0, 1_100_000, 0, 11_000_000);
    order.cashback = 200_000;
    order.cashback_tiers = vec![(10_000_000, 200_000)];
    let lines = vec![line(1, 10, 6_000_000, 0, 0), line(2, 10, 5_000_000, 0, 0)];
    let refund = compute(&order, &lines, &[Wanted { item: 2, number: 3, lot: None }], 0, 100).unwrap().unwrap();
    assert_eq!((refund.refund, refund.cashback_taken, refund.points_deducted), (1_500_000, 200_000, 1_300_000));
}

/// Returning three units one by one refunds exactly what the line paid, and gives back
/// exactly its red packets, all the points spent and takes back all the points earned.
#[test]
fn one_by_one_adds_up_to_the_whole() {
    // 10.00 paid, 0.05 of red packets, 0.07 of points (7 points), 9 points earned.
    let mut order = order(7, 700, 9, 0, 100_000);
    let mut lines = vec![line(1, 3, 100_000, 500, 700)];
    let mut total = Paid::default();
    for _ in 0..3 {
        let refund = compute(&order, &lines, &[Wanted { item: 1, number: 1, lot: None }], PLENTY, 100).unwrap().unwrap();
        total.refund += refund.refund;
        total.red_packet += refund.red_packet;
        total.points_back += refund.points_back;
        total.points_taken += refund.points_taken;
        lines[0].returned += 1;
        lines[0].points_back_value += refund.points_value;
        order.refunded += refund.refund;
    }
    assert_eq!(total, Paid { refund: 100_000, red_packet: 500, points_back: 7, points_taken: 9, points_deducted: 0, cashback_taken: 0 });
    let more = compute(&order, &lines, &[Wanted { item: 1, number: 1, lot: None }], PLENTY, 100).unwrap();
    assert_eq!(more, Err(Refusal::field("lines[0]", "goods 1最多可退0件")));
}

/// The points a shipping fee earned stay: 94 points earned on 84.00 of goods and 10.00 of
/// shipping, a unit of 28.00 returned takes back 28 of them, everything back takes 84.
#[test]
fn the_shipping_fees_points_stay() {
    let order = order(0, 0, 94, 0, 940_000);
    let lines = vec![line(1, 3, 840_000, 0, 0)];
    let one = compute(&order, &lines, &[Wanted { item: 1, number: 1, lot: None }], PLENTY, 100).unwrap().unwrap();
    assert_eq!((one.refund, one.points_taken), (280_000, 28));
    let all = compute(&order, &lines, &[Wanted { item: 1, number: 3, lot: None }], PLENTY, 100).unwrap().unwrap();
    assert_eq!(all.points_taken, 84);
}

/// Earned points spent since come out of the refund at the points' value (rule 21): 1,000
/// points earned on 1,000.00, all spent, the whole order back: 10.00 deducted at 100 a
/// yuan; 400 still held: those taken, 6.00 deducted; the points the return gives back count
/// as held.
#[test]
fn earned_points_spent_come_out_of_the_refund() {
    let whole = order(0, 0, 1_000, 0, 10_000_000);
    let lines = vec![line(1, 10, 10_000_000, 0, 0)];
    let all = [Wanted { item: 1, number: 10, lot: None }];
    let none = compute(&whole, &lines, &all, 0, 100).unwrap().unwrap();
    assert_eq!((none.refund, none.points_taken, none.points_short, none.points_deducted), (10_000_000, 0, 1_000, 100_000));
    let some = compute(&whole, &lines, &all, 400, 100).unwrap().unwrap();
    assert_eq!((some.points_taken, some.points_short, some.points_deducted), (400, 600, 60_000));
    // 1,000.00 of goods, 300 points (3.00) spent on them, 997.00 paid and 997 points
    // earned: the 300 points come back with the return and count as held.
    let spent = order(300, 30_000, 997, 0, 9_970_000);
    let lines = vec![line(1, 10, 9_970_000, 0, 30_000)];
    let back = compute(&spent, &lines, &all, 0, 100).unwrap().unwrap();
    assert_eq!((back.points_back, back.points_taken, back.points_short, back.points_deducted), (300, 300, 697, 69_700));
}

#[test]
fn the_first_unit_of_three_refunds_a_third_cut_to_the_cent() {
    let order = order(0, 0, 0, 0, 100_000);
    let lines = vec![line(1, 3, 100_000, 0, 0)];
    let refund = compute(&order, &lines, &[Wanted { item: 1, number: 1, lot: None }], PLENTY, 100).unwrap().unwrap();
    assert_eq!((refund.refund, refund.points_back, refund.points_taken), (33_300, 0, 0));
}

#[test]
fn lines_are_read_and_refused_in_chinese() {
    assert_eq!(
        parse_lines("12:1, 13:2").unwrap(),
        vec![Wanted { item: 12, number: 1, lot: None }, Wanted { item: 13, number: 2, lot: None }]
    );
    assert_eq!(parse_lines(""), Err(Refusal::field("lines", "请选择要退货的商品")));
    assert_eq!(parse_lines("12:0"), Err(Refusal::field("lines", "退货数量至少为1")));
    assert_eq!(parse_lines("12:1,12:2"), Err(Refusal::field("lines", "同一商品只能填写一次")));
    assert_eq!(parse_lines("x"), Err(Refusal::field("lines", "退货商品格式不正确")));
    let order = order(0, 0, 0, 0, 100_000);
    let wrong = compute(&order, &[line(1, 3, 100_000, 0, 0)], &[Wanted { item: 2, number: 1, lot: None }], PLENTY, 100).unwrap();
    assert_eq!(wrong, Err(Refusal::field("lines[0]", "订单中没有该商品")));
}

#[test]
fn steps_leave_their_states_only() {
    use ReturnStatus::*;
    assert_eq!(Step::Approve.refusal(Refunded), "退货单状态为已退款，不能同意");
    assert_eq!(Step::Receive.from(), &[Approved]);
    assert_eq!(Step::Reject.from(), &[Requested, Approved]);
    assert_eq!(Step::Withdraw.to(), Withdrawn);
    assert_eq!(ReturnStatus::ALL.map(ReturnStatus::code), [0, 1, 2, 3, 4]);
}

/// A line comes back only as far as it was shipped, from a lot that shipped it; the member
/// names the lot when the line left in two.
#[test]
fn returned_units_come_back_from_a_lot_that_shipped_them() {
    use super::lots::{LineLot, resolve};
    let mut lines = vec![line(1, 10, 1_000_000, 0, 0), line(2, 5, 500_000, 0, 0)];
    lines[0].shipped = 6;
    let lot = |item, lot_id, shipped, returned| LineLot {
        item,
        lot_id,
        lot_no: format!("L{lot_id}"),
        expires_on: "2028-01-31".into(),
        shipped,
        returned,
    };
    let lots = vec![lot(1, 7, 4, 0), lot(1, 8, 2, 1), lot(2, 9, 5, 0)];
    let want = |item, number, lot| Wanted { item, number, lot };
    // Line 2 left in one lot: it comes back from it.
    assert_eq!(resolve(&lines, &lots, &[want(2, 5, None)]), Ok(vec![Some(9)]));
    // Line 1 left in two: the member names one, within what it shipped and was not returned.
    assert!(matches!(resolve(&lines, &lots, &[want(1, 1, None)]), Err(Refusal::Field(_, message)) if message.contains("请选择退回的批号")));
    assert_eq!(resolve(&lines, &lots, &[want(1, 4, Some(7)), want(2, 1, None)]), Ok(vec![Some(7), Some(9)]));
    assert!(matches!(resolve(&lines, &lots, &[want(1, 2, Some(8))]), Err(Refusal::Field(_, message)) if message.contains("只发出1件未退")));
    assert!(
        matches!(resolve(&lines, &lots, &[want(1, 1, Some(9))]), Err(Refusal::Field(_, message)) if message.contains("没有从该批号发货"))
    );
    // Only shipped units come back: 6 of line 1's 10.
    assert!(matches!(resolve(&lines, &lots, &[want(1, 7, Some(7))]), Err(Refusal::Field(_, message)) if message.contains("只有6件")));
    assert_eq!(super::parse_lines("1:4:7, 2:1"), Ok(vec![want(1, 4, Some(7)), want(2, 1, None)]));
    assert!(super::parse_lines("1:4:x").is_err());
    assert!(super::parse_lines("1:4:7:2").is_err());
}
