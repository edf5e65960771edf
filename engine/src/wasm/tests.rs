//! The two ways through the token stream agree: on any cart, mangled or not, the quick reader
//! (`fast.rs`) either gives up or gives exactly what the serde readers give, and those give
//! what they give for the same cart as JSON. The tokens are written here as `js/boundary.js`
//! writes them.

#[path = "../../benches/support/cart_gen.rs"]
mod cart_gen;
#[path = "../../tests/support/mangle.rs"]
mod mangle;

use proptest::prelude::*;
use serde::Deserialize;
use serde_json::Value;

use super::fast;
use super::tokens::{ARR, FALSE, MAP, NULL, NUM, STR, TRUE, Tokens};
use crate::read::Key;
use crate::{CartInput, cart_from_value};

/// Which keys each object has for the engine (as in boundary.js); `Scalar` is anything else.
#[derive(Clone, Copy)]
enum Schema {
    Scalar,
    Cart,
    Shipping,
    Activity,
    Tier,
    Item,
    Goods,
    Step,
    ListOf(&'static Schema),
}

fn fields(schema: Schema) -> &'static [(Key, Schema)] {
    match schema {
        Schema::Cart => {
            &[(Key::Items, Schema::ListOf(&Schema::Item)), (Key::ShippingData, Schema::Shipping), (Key::ActivityData, Schema::Activity)]
        }
        Schema::Shipping => &[(Key::ShippingAmount, Schema::Scalar), (Key::NoTransOrderAmount, Schema::Scalar)],
        Schema::Activity => &[(Key::Manjians, Schema::ListOf(&Schema::Tier))],
        Schema::Tier => &[(Key::Amount, Schema::Scalar), (Key::Reduce, Schema::Scalar)],
        Schema::Item => &[
            (Key::Id, Schema::Scalar),
            (Key::Type, Schema::Scalar),
            (Key::Number, Schema::Scalar),
            (Key::Price, Schema::Scalar),
            (Key::IsSelected, Schema::Scalar),
            (Key::WithCoupon, Schema::Scalar),
            (Key::GoodsManjianId, Schema::Scalar),
            (Key::Goods, Schema::Goods),
            (Key::Combination, Schema::Goods),
        ],
        Schema::Goods => &[
            (Key::Id, Schema::Scalar),
            (Key::IsBuy, Schema::Scalar),
            (Key::Number, Schema::Scalar),
            (Key::IsYoux, Schema::Scalar),
            (Key::Type, Schema::Scalar),
            (Key::IsDpby, Schema::Scalar),
            (Key::QgNumber, Schema::Scalar),
            (Key::BasePrice, Schema::Scalar),
            (Key::LadderPrice, Schema::ListOf(&Schema::Step)),
            (Key::LadderPriceType, Schema::Scalar),
        ],
        Schema::Step => &[(Key::Number, Schema::Scalar), (Key::Price, Schema::Scalar)],
        Schema::Scalar | Schema::ListOf(_) => &[],
    }
}

fn write(value: &Value, schema: Schema, tokens: &mut Vec<f64>, strings: &mut Vec<String>) {
    match value {
        Value::Null => tokens.push(NULL),
        Value::Bool(flag) => tokens.push(if *flag { TRUE } else { FALSE }),
        Value::Number(number) => tokens.extend([NUM, number.as_f64().unwrap()]),
        Value::String(text) => {
            tokens.extend([STR, text.encode_utf16().count() as f64]);
            strings.push(text.clone());
        }
        Value::Array(list) => {
            tokens.push(ARR);
            match schema {
                Schema::ListOf(of) => {
                    tokens.push(list.len() as f64);
                    list.iter().for_each(|element| write(element, *of, tokens, strings));
                }
                _ => tokens.push(0.0),
            }
        }
        Value::Object(map) => {
            tokens.push(MAP);
            let present: Vec<_> = fields(schema).iter().filter_map(|(key, child)| Some((key, child, map.get(key.name())?))).collect();
            tokens.push(present.len() as f64);
            for (key, child, value) in present {
                tokens.push(Key::ALL.iter().position(|k| k == key).unwrap() as f64);
                write(value, *child, tokens, strings);
            }
        }
    }
}

fn arbitrary_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-3i64..3).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter("JSON has no NaN", |x| x.is_finite()).prop_map(Value::from),
        prop_oneof![Just(0.5), Just(1e21), Just(-0.0), Just(18446744073709551616.0), Just(9007199254740993.0)].prop_map(Value::from),
        "[0-9.e-]{0,6}".prop_map(Value::from),
        "\\PC{0,4}".prop_map(Value::from),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..3).prop_map(Value::from),
            proptest::collection::btree_map("[a-z]{1,3}|price|number|id", inner, 0..3)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn both_token_readers_agree_with_json(
        lines in 0usize..4,
        changes in proptest::collection::vec(
            (proptest::collection::vec(any::<prop::sample::Index>(), 1..6), arbitrary_json()), 0..3),
    ) {
        let mut value = cart_gen::bench_cart(lines);
        for (path, replacement) in changes {
            mangle::replace_somewhere(&mut value, &path, replacement);
        }
        let (mut tokens, mut strings) = (Vec::new(), Vec::new());
        write(&value, Schema::Cart, &mut tokens, &mut strings);
        let text = strings.concat();

        let from_json = cart_from_value(&value);
        let mut stream = Tokens::new(&tokens, &text);
        let from_tokens = CartInput::deserialize(&mut stream);
        match (&from_json, &from_tokens) {
            (Ok(json), Ok(tokens)) => prop_assert_eq!(json, tokens),
            (Err(_), Err(_)) => {}
            _ => prop_assert!(false, "json {from_json:?} vs tokens {from_tokens:?}"),
        }
        if let Some(quick) = fast::cart(&tokens, &text) {
            prop_assert_eq!(Some(&quick), from_json.as_ref().ok());
        } else if lines > 0 {
            // The quick reader gives up only on a cart that was mangled.
            prop_assert!(value != cart_gen::bench_cart(lines));
        }
    }
}

/// A string's length counts UTF-16 code units of the text, not tokens: a settlement of one key
/// and a longer amount (five tokens, six characters) reads as its JSON does.
#[test]
fn a_string_longer_than_the_token_stream_reads() {
    let key = |key: Key| Key::ALL.iter().position(|k| *k == key).unwrap() as f64;
    let cases: [(Vec<f64>, &str, Value); 3] = [
        (vec![MAP, 1.0, key(Key::ShippingFee), STR, 6.0], "100.00", serde_json::json!({ "shipping_fee": "100.00" })),
        (
            vec![MAP, 2.0, key(Key::RedPacketBalance), STR, 10.0, key(Key::UseRedPacket), NUM, 1.0],
            "1234567.89",
            serde_json::json!({ "red_packet_balance": "1234567.89", "use_red_packet": 1 }),
        ),
        (
            vec![MAP, 1.0, key(Key::RedPacketMaxRate), STR, 20.0],
            "0.123456789012345678",
            serde_json::json!({ "red_packet_max_rate": "0.123456789012345678" }),
        ),
    ];
    for (tokens, text, json) in cases {
        let mut stream = Tokens::new(&tokens, text);
        let read = crate::read::settlement(&mut stream).unwrap();
        assert!(stream.is_done());
        let cart = cart_from_value(&serde_json::json!({ "items": [], "settlement": json })).unwrap();
        assert_eq!(Some(read), cart.settlement);
    }
    // A length beyond the text left is still a broken stream.
    let tokens = [MAP, 1.0, key(Key::ShippingFee), STR, 7.0];
    assert!(crate::read::settlement(&mut Tokens::new(&tokens, "100.00")).is_err());
}
