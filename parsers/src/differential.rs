//! Test support for differential tests: a grammar checked against the code it replaced, on
//! every line of the fixtures and on lines mutated from them.

/// Every line of every regular file under `parsers/tests/fixtures` (links not followed),
/// decoded lossily, in path order.
pub(crate) fn fixture_lines() -> Vec<String> {
    fn walk(dir: &std::path::Path, out: &mut Vec<String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap())
            .map(|e| (e.path(), e.file_type().unwrap()))
            .collect();
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        for (p, kind) in entries {
            if kind.is_dir() {
                walk(&p, out);
            } else if kind.is_file() {
                let bytes = std::fs::read(&p).unwrap();
                out.extend(String::from_utf8_lossy(&bytes).lines().map(str::to_string));
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"),
        &mut out,
    );
    out
}

/// A small deterministic generator (xorshift64*), so that a failure can be replayed.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }

    /// `line` with one to three edits: a character replaced, inserted or deleted, or the
    /// line cut, the new characters drawn from `alphabet`.
    pub(crate) fn mutate(&mut self, line: &str, alphabet: &[char]) -> String {
        let mut chars: Vec<char> = line.chars().collect();
        for _ in 0..=self.below(3) {
            let at = self.below(chars.len() + 1);
            let c = alphabet[self.below(alphabet.len())];
            match self.below(4) {
                0 if at < chars.len() => chars[at] = c,
                1 => chars.insert(at, c),
                2 if at < chars.len() => {
                    chars.remove(at);
                }
                3 => chars.truncate(at),
                _ => chars.insert(at, c),
            }
        }
        chars.into_iter().collect()
    }
}
