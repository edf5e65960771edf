//! Largest remainder: an amount of whole cents shared over lines in proportion to their
//! weights, every cent given and ties to the earlier line. Rule 8 shares the full-reduction
//! discount with it and rule 19 every deduction of the settlement (`docs/pricing.md`).

/// Shares `value` cents over `weights` in proportion, in whole cents, by largest remainder:
/// each gets `floor(value × wᵢ / W)`, and the cents left go one each to the largest remainders
/// (ties: the earlier). Σ shares = value whenever W > 0. `None` beyond 64-bit arithmetic.
pub(crate) fn share_out(value: i64, weights: &[i64]) -> Option<Vec<i64>> {
    let mut shares = vec![0i64; weights.len()];
    let total = weights.iter().try_fold(0i64, |sum, weight| sum.checked_add(*weight))?;
    if value <= 0 || total <= 0 {
        return Some(shares);
    }
    // (u64::MAX − remainder, position): sorted by key, the largest remainders come first,
    // ties in input order.
    let mut remainders: Vec<(u64, u32)> = Vec::new();
    let mut given = 0i64;
    for (position, (&weight, share)) in weights.iter().zip(shares.iter_mut()).enumerate() {
        if weight <= 0 {
            continue;
        }
        // 64-bit division where the product fits (every real order): 128-bit division is a
        // slow library call in WebAssembly.
        let (quotient, remainder) = match value.checked_mul(weight) {
            Some(product) => (product / total, product % total),
            None => {
                let product = i128::from(value) * i128::from(weight);
                ((product / i128::from(total)) as i64, (product % i128::from(total)) as i64)
            }
        };
        *share = quotient;
        given += quotient;
        if remainder > 0 {
            remainders.push((u64::MAX - remainder as u64, position as u32));
        }
    }
    let left = (value - given) as usize;
    if left > 0 {
        sort_by_key(&mut remainders);
        for &(_, position) in remainders.iter().take(left) {
            shares[position as usize] += 1;
        }
    }
    Some(shares)
}

/// Sorts `(key, value)` pairs by key, pairs of equal keys keeping their order. Short lists by
/// insertion, longer ones by radix, a byte of the key a pass, skipping the bytes all keys share:
/// a tenth of the code of the standard library's sorts in WebAssembly, and as fast or faster
/// from a hundred pairs up.
pub(crate) fn sort_by_key(pairs: &mut Vec<(u64, u32)>) {
    if pairs.len() <= 48 {
        for i in 1..pairs.len() {
            let pair = pairs[i];
            let mut j = i;
            while j > 0 && pair.0 < pairs[j - 1].0 {
                pairs[j] = pairs[j - 1];
                j -= 1;
            }
            pairs[j] = pair;
        }
        return;
    }
    let first = pairs[0].0;
    let differ = pairs.iter().fold(0, |bits, pair| bits | (pair.0 ^ first));
    let mut sorted = vec![(0, 0); pairs.len()];
    for shift in (0..64).step_by(8) {
        if differ >> shift & 0xff == 0 {
            continue;
        }
        // Where each byte value's pairs start, then each pair to its place, in order.
        let mut starts = [0usize; 256];
        for pair in pairs.iter() {
            starts[(pair.0 >> shift) as usize & 0xff] += 1;
        }
        let mut total = 0;
        for start in &mut starts {
            let count = *start;
            *start = total;
            total += count;
        }
        for pair in pairs.iter() {
            let byte = (pair.0 >> shift) as usize & 0xff;
            sorted[starts[byte]] = *pair;
            starts[byte] += 1;
        }
        std::mem::swap(pairs, &mut sorted);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn largest_remainder_gives_every_cent_and_breaks_ties_by_position() {
        assert_eq!(share_out(1, &[3, 3]), Some(vec![1, 0]));
        assert_eq!(share_out(100, &[1, 1, 1]), Some(vec![34, 33, 33]));
        assert_eq!(share_out(2, &[1, 1, 1]), Some(vec![1, 1, 0]));
        assert_eq!(share_out(5, &[0, 3, 0, 7]), Some(vec![0, 2, 0, 3]));
        assert_eq!(share_out(0, &[5, 5]), Some(vec![0, 0]));
        assert_eq!(share_out(7, &[0, 0]), Some(vec![0, 0]));
    }

    #[test]
    fn sorts_pairs_by_key_keeping_the_order_of_equal_keys() {
        let mut seed = 7u64;
        for len in [0, 1, 2, 5, 48, 49, 300, 3000] {
            for spread in [3, 1000, u64::MAX] {
                let mut pairs: Vec<(u64, u32)> = (0..len)
                    .map(|i| {
                        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        ((seed >> 7) % spread, i)
                    })
                    .collect();
                let mut expected = pairs.clone();
                expected.sort();
                sort_by_key(&mut pairs);
                assert_eq!(pairs, expected, "{len} pairs below {spread}");
            }
        }
    }
}
