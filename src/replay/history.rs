//! The repetition history: the keys of the mainline positions since the
//! last irreversible move (capture or pawn move), and how often each
//! position occurred.

/// Keys of the mainline positions since the last irreversible move.
#[derive(Debug, Clone)]
pub(super) struct History {
    keys: Vec<u64>,
    /// How many keys fall in each bucket (the key's top byte): a position
    /// seen fewer than five times in its bucket cannot be a fivefold
    /// repetition, so the keys are scanned only past that. Exact while the
    /// game is not over by rule (the history then holds at most 151 keys);
    /// not read after.
    seen: [u8; 256],
}

impl Default for History {
    fn default() -> History {
        History {
            keys: Vec::new(),
            seen: [0; 256],
        }
    }
}

impl History {
    /// Empties the history for a new game, keeping its buffer.
    pub(super) fn clear(&mut self) {
        self.keys.clear();
        self.seen = [0; 256];
    }

    /// Forgets every position before an irreversible move: none can occur
    /// again.
    #[inline]
    pub(super) fn irreversible(&mut self) {
        for &earlier in self.keys.iter() {
            let seen = &mut self.seen[bucket(earlier)];
            *seen = seen.wrapping_sub(1);
        }
        self.keys.clear();
    }

    /// Adds a position's key; returns the count of its bucket.
    #[inline]
    pub(super) fn push(&mut self, key: u64) -> u8 {
        self.keys.push(key);
        let seen = &mut self.seen[bucket(key)];
        *seen = seen.wrapping_add(1);
        *seen
    }

    /// Whether the last position occurred a fifth time, given the count of
    /// its bucket that [`push`](Self::push) returned.
    #[inline]
    pub(super) fn is_fivefold(&self, seen: u8) -> bool {
        seen >= 5 && self.keys.len() >= 17 && self.repetitions() >= 5
    }

    /// Whether a position with the other side to move than the last one
    /// occurred twice: only then can a move make a third occurrence.
    pub(super) fn has_twice_with_other_to_move(&self) -> bool {
        let mut other = self.keys.iter().rev().skip(1).step_by(2);
        while let Some(key) = other.next() {
            if other.clone().any(|k| k == key) {
                return true;
            }
        }
        false
    }

    /// How often the position with `key`, the other side to move than in
    /// the last position, occurred.
    pub(super) fn occurrences_with_other_to_move(&self, key: u64) -> usize {
        self.keys
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|&&k| k == key)
            .count()
    }

    /// How often the last position occurred, itself included.
    pub(super) fn repetitions(&self) -> usize {
        match self.keys.split_last() {
            Some((last, earlier)) => {
                1 + earlier
                    .iter()
                    .rev()
                    .skip(1)
                    .step_by(2)
                    .filter(|k| *k == last)
                    .count()
            }
            None => 1,
        }
    }
}

/// The bucket of a position key in [`History::seen`].
#[inline]
fn bucket(key: u64) -> usize {
    (key >> 56) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(keys: &[u64]) -> History {
        let mut h = History::default();
        for &k in keys {
            h.push(k);
        }
        h
    }

    #[test]
    fn positions_with_the_other_side_to_move() {
        // Keys alternate sides: with 5 last, 4 and 2 have the other side
        // to move, 1, 3 and 5 the same side.
        let cases: &[(&[u64], bool, u64, usize)] = &[
            (&[1, 2, 3, 2, 5], true, 2, 2),
            (&[2, 1, 2, 3, 5], false, 2, 0),
            (&[7, 2, 7, 4, 7], false, 7, 0),
            (&[9, 1, 9, 4, 9, 1, 9], true, 1, 2),
            (&[5], false, 5, 0),
            (&[], false, 1, 0),
        ];
        for &(keys, twice, key, count) in cases {
            let h = of(keys);
            assert_eq!(h.has_twice_with_other_to_move(), twice, "{keys:?}");
            assert_eq!(h.occurrences_with_other_to_move(key), count, "{keys:?}");
        }
    }
}
