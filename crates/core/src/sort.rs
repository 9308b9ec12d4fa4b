//! One stable sort for every type, so the browser build carries one copy of it.
//!
//! The standard library's `sort_by` is generic: each element type and comparator gets its
//! own copy of the whole driftsort (quicksort, merges, small sorts), and a `BTreeMap` or
//! `BTreeSet` built with `collect` sorts through it too. The browser build had 30 such
//! copies, about 60 KB of raw wasm. Here the sorting itself is written once, over
//! positions and a comparator behind `dyn`; the generic part that each type keeps is two
//! small closures. It is a bottom-up merge sort: stable (equal elements keep their order,
//! as `slice::sort_by` promises), `n log n` comparisons, and one `Vec<usize>` of scratch.
//! Everything in the core, the view and the app sorts through here; a test holds it to
//! the standard library's order on random inputs.

use std::cmp::Ordering;

/// Sorts `items` stably by `cmp`, as `slice::sort_by` does.
pub fn sort_by<T>(items: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    let order = stable_order(items.len(), &mut |a, b| cmp(&items[a], &items[b]));
    permute(&order, &mut |a, b| items.swap(a, b));
}

/// Sorts `items` stably by the key `key` gives, as `slice::sort_by_key` does.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` stably by a key computed once per element, as
/// `slice::sort_by_cached_key` does (for keys that are costly to build).
pub fn sort_by_cached_key<T, K: Ord>(items: &mut [T], key: impl FnMut(&T) -> K) {
    let keys: Vec<K> = items.iter().map(key).collect();
    let order = stable_order(keys.len(), &mut |a, b| keys[a].cmp(&keys[b]));
    permute(&order, &mut |a, b| items.swap(a, b));
}

/// Sorts `items` by their own order and drops repeats, as `sort` then `dedup` do.
pub fn sort_dedup<T: Ord>(items: &mut Vec<T>) {
    sort_by(items, T::cmp);
    items.dedup();
}

/// The positions `0..n` in the order a stable sort by `cmp` puts them.
fn stable_order(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut scratch = vec![0; n];
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j) = (start, mid);
            for slot in &mut scratch[start..end] {
                // Take from the right run only when it is strictly smaller: stability.
                let right = j < end && (i >= mid || cmp(order[j], order[i]) == Ordering::Less);
                if right {
                    *slot = order[j];
                    j += 1;
                } else {
                    *slot = order[i];
                    i += 1;
                }
            }
            start = end;
        }
        std::mem::swap(&mut order, &mut scratch);
        width *= 2;
    }
    order
}

/// Rearranges a sequence so that position `k` holds what was at `order[k]`, through
/// `swap`, following each cycle of the permutation once.
fn permute(order: &[usize], swap: &mut dyn FnMut(usize, usize)) {
    // `at[e]`: where element `e` (its first position) is now; `who[p]`: which element is
    // at position `p` now.
    let mut at: Vec<usize> = (0..order.len()).collect();
    let mut who = at.clone();
    for (k, &wanted) in order.iter().enumerate() {
        let from = at[wanted];
        if from != k {
            swap(k, from);
            let displaced = who[k];
            who[from] = displaced;
            at[displaced] = from;
            who[k] = wanted;
            at[wanted] = k;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator, so the cases are the same on every run.
    fn numbers(seed: u64, n: usize, range: u64) -> Vec<u64> {
        let mut s = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (0..n)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (s >> 33) % range
            })
            .collect()
    }

    #[test]
    fn matches_the_standard_librarys_stable_order() {
        for n in [0, 1, 2, 3, 5, 8, 13, 31, 64, 100, 257, 1000] {
            for (seed, range) in [(1, 3), (2, 10), (3, 1000), (4, 1)] {
                // Pairs (key, original position): equal keys must keep their positions' order.
                let keys = numbers(seed + n as u64, n, range);
                let mut ours: Vec<(u64, usize)> = keys.iter().copied().zip(0..).collect();
                let mut std = ours.clone();
                sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
                std.sort_by_key(|a| a.0);
                assert_eq!(ours, std, "n {n}, seed {seed}, range {range}");
            }
        }
    }

    #[test]
    fn keys_reversed_and_cached_and_deduplicated() {
        let words = ["pear", "fig", "apple", "kiwi", "date", "plum"];
        let mut by_len = words.to_vec();
        sort_by_key(&mut by_len, |w| w.len());
        assert_eq!(by_len, ["fig", "pear", "kiwi", "date", "plum", "apple"]);
        let mut down = words.to_vec();
        sort_by(&mut down, |a, b| b.cmp(a));
        assert_eq!(down, ["plum", "pear", "kiwi", "fig", "date", "apple"]);
        let mut calls = 0;
        let mut cached = words.to_vec();
        sort_by_cached_key(&mut cached, |w| {
            calls += 1;
            std::cmp::Reverse(w.len())
        });
        assert_eq!(calls, words.len());
        assert_eq!(cached, ["apple", "pear", "kiwi", "date", "plum", "fig"]);
        let mut repeated = vec![3, 1, 3, 2, 1, 3];
        sort_dedup(&mut repeated);
        assert_eq!(repeated, [1, 2, 3]);
    }

    #[test]
    fn every_permutation_of_five_is_sorted() {
        // All 120 orders of five distinct values: the cycle-following permutation must
        // place every one.
        let mut perm = [0usize, 1, 2, 3, 4];
        let mut count = 0;
        loop {
            let mut v = perm.to_vec();
            sort_by(&mut v, usize::cmp);
            assert_eq!(v, [0, 1, 2, 3, 4], "from {perm:?}");
            count += 1;
            // Next permutation in lexicographic order.
            let Some(i) = (0..4).rev().find(|&i| perm[i] < perm[i + 1]) else {
                break;
            };
            let j = (i + 1..5)
                .rev()
                .find(|&j| perm[j] > perm[i])
                .expect("a larger value follows i");
            perm.swap(i, j);
            perm[i + 1..].reverse();
        }
        assert_eq!(count, 120);
    }
}
