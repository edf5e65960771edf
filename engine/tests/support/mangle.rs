//! Replacing one value somewhere in a JSON document, for tests that mangle valid carts.

use proptest::sample::Index;
use serde_json::Value;

/// Walks `path` down objects and arrays (each step picks a child), and puts `replacement`
/// where the walk ends or can go no further.
pub fn replace_somewhere(value: &mut Value, path: &[Index], replacement: Value) {
    let Some((step, rest)) = path.split_first() else {
        *value = replacement;
        return;
    };
    let child = match value {
        Value::Object(map) if !map.is_empty() => {
            let key = map.keys().nth(step.index(map.len())).unwrap().clone();
            map.get_mut(&key)
        }
        Value::Array(list) if !list.is_empty() => {
            let at = step.index(list.len());
            list.get_mut(at)
        }
        _ => None,
    };
    match child {
        Some(child) => replace_somewhere(child, rest, replacement),
        None => *value = replacement,
    }
}
