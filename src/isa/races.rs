//! Races between warps on the local data share, as the interpreter sees them: a word written by
//! one warp and read or written by another, with nothing between the two accesses that orders
//! them (a `bar` between them does: each barrier begins a new interval). Such a
//! kernel's result depends on how the warps are scheduled, so the interpreter's order and the
//! core's may differ; `run` names each race by the two source lines.

/// One access to a word: the warp, the instruction's address, and whether it wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    /// The warp.
    pub warp: usize,
    /// The instruction's index.
    pub pc: usize,
    /// It wrote.
    pub write: bool,
}

/// Two accesses of different warps to one word, at least one of them a write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Race {
    /// The word.
    pub word: usize,
    /// The first access.
    pub first: Access,
    /// The second, of another warp.
    pub second: Access,
}

/// At most this many races are kept (each pair of instructions once).
pub const MAX_RACES: usize = 16;

/// Per word, the first access of each kind by each warp since the interval began; the races
/// found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RaceLog {
    accesses: Vec<Vec<Access>>,
    /// The races found.
    pub races: Vec<Race>,
}

impl RaceLog {
    /// For a local data share of `words` words.
    pub fn new(words: usize) -> RaceLog {
        RaceLog { accesses: vec![vec![]; words], races: vec![] }
    }

    /// Every warp has passed a barrier: accesses before it are ordered before those after it.
    pub fn barrier(&mut self) {
        self.accesses.iter_mut().for_each(Vec::clear);
    }

    /// Warp `warp`'s instruction at `pc` reads (or, `write`, writes) `word`.
    pub fn access(&mut self, word: usize, warp: usize, pc: usize, write: bool) {
        let now = Access { warp, pc, write };
        let seen = &mut self.accesses[word];
        if let Some(&first) = seen.iter().find(|a| a.warp != warp && (a.write || write)) {
            let known = self.races.iter().any(|r| (r.first.pc, r.second.pc) == (first.pc, pc));
            if !known && self.races.len() < MAX_RACES {
                self.races.push(Race { word, first, second: now });
            }
        }
        if !seen.iter().any(|a| a.warp == warp && a.write == write) {
            seen.push(now);
        }
    }
}
