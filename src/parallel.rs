//! Work distribution over threads: the driver compiles the kernels of a
//! module independently of each other (legalization, selection, register
//! allocation, scheduling and encoding see one function at a time), so it
//! hands them to a few scoped worker threads. Results come back in the
//! order of the inputs, whatever thread computed them, so the output never
//! depends on timing.

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many threads to use when the caller does not say: the machine's
/// available parallelism (one where it cannot be read).
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
}

/// `f` applied to every item, on up to `threads` threads (the calling
/// thread is one of them). Items are taken one at a time from a shared
/// counter, so a long item does not hold up the others; results are in
/// item order. With one thread or one item no thread is started.
pub fn map<T: Sync, R: Send>(items: &[T], threads: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = threads.clamp(1, items.len().max(1));
    if threads == 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(k) else { break };
            done.push((k, f(item)));
        }
        done
    };
    let mut results: Vec<(usize, R)> = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        let mut all = work();
        for helper in helpers {
            // A worker only panics on a compiler bug; pass it on unchanged.
            match helper.join() {
                Ok(done) => all.extend(done),
                Err(payload) => std::panic::resume_unwind(payload),
            }
        }
        all
    });
    results.sort_unstable_by_key(|&(k, _)| k);
    results.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_follow_input_order_on_any_thread_count() {
        let items: Vec<u64> = (0..257).collect();
        // Uneven work so that threads finish items out of order.
        let slow_square = |x: &u64| {
            let mut acc = 0u64;
            for _ in 0..(x % 7) * 1000 {
                acc = std::hint::black_box(acc + 1);
            }
            x * x + acc - acc
        };
        for threads in [0, 1, 2, 3, 8, 1000] {
            let got = map(&items, threads, slow_square);
            let want: Vec<u64> = items.iter().map(|x| x * x).collect();
            assert_eq!(got, want, "threads = {threads}");
        }
        assert!(map(&[] as &[u64], 4, slow_square).is_empty());
    }
}
