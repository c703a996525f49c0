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
