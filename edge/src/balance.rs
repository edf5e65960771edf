//! Several origins behind one edge (`ORIGIN_URL` lists them, separated by commas): each
//! request goes to the next origin in turn; one that gave no answer (refused or dropped the
//! connection) rests for `REST_MS` and is passed over meanwhile. A request that got no answer
//! goes on to the next origin when sending it again cannot do anything twice
//! ([`may_resend`]). After its rest, a failed origin is tried again by such requests only —
//! they can go on if it is still down — and takes every request again once it answers one. The
//! state is the isolate's own: each isolate learns of a failed origin by its own first failed
//! request.

/// How long an origin that gave no answer is passed over, in milliseconds.
pub const REST_MS: f64 = 5_000.0;

/// The origins of an `ORIGIN_URL` setting: one URL, or several separated by commas (white
/// space around them ignored), without their trailing slashes.
pub fn origins(setting: &str) -> Vec<String> {
    setting.split(',').map(|origin| origin.trim().trim_end_matches('/').to_owned()).filter(|origin| !origin.is_empty()).collect()
}

/// Whose turn it is, and which origins rest until when.
#[derive(Debug, Clone)]
pub struct Balancer {
    turn: usize,
    resting_until: Vec<f64>,
    /// Failed, and has not answered since.
    failed: Vec<bool>,
}

impl Balancer {
    pub fn new(origins: usize) -> Balancer {
        Balancer { turn: 0, resting_until: vec![0.0; origins], failed: vec![false; origins] }
    }

    pub fn len(&self) -> usize {
        self.resting_until.len()
    }

    pub fn is_empty(&self) -> bool {
        self.resting_until.is_empty()
    }

    /// The origins to try for one request at `now` (milliseconds), in order: those awake, from
    /// the one whose turn it is; then the others, the soonest back first (a try is better than
    /// no answer). A failed origin is awake after its rest for a request that may be sent on
    /// (`resend`), and only once it has answered again for one that may not.
    pub fn plan(&mut self, now: f64, resend: bool) -> Vec<usize> {
        let count = self.len();
        if count == 0 {
            return Vec::new();
        }
        let start = self.turn % count;
        self.turn = self.turn.wrapping_add(1);
        let awake = |origin: usize| if resend { self.resting_until[origin] <= now } else { !self.failed[origin] };
        let (mut awake, mut resting): (Vec<usize>, Vec<usize>) =
            (0..count).map(|offset| (start + offset) % count).partition(|&origin| awake(origin));
        resting.sort_by(|a, b| self.resting_until[*a].total_cmp(&self.resting_until[*b]));
        awake.append(&mut resting);
        awake
    }

    /// `origin` gave no answer at `now`: it rests.
    pub fn failed(&mut self, origin: usize, now: f64) {
        if origin < self.len() {
            self.resting_until[origin] = now + REST_MS;
            self.failed[origin] = true;
        }
    }

    /// `origin` answered: it is awake.
    pub fn answered(&mut self, origin: usize) {
        if origin < self.len() {
            self.resting_until[origin] = 0.0;
            self.failed[origin] = false;
        }
    }
}

/// Whether a request that got no answer may be sent to another origin: it reads only (`GET`,
/// `HEAD`), or it carries an `Idempotency-Key`, under which the origins answer a repeat with
/// the first answer and never act twice (`docs/api.md`, "Orders and Idempotency-Key").
pub fn may_resend(method: &str, idempotency_key: Option<&str>) -> bool {
    matches!(method, "GET" | "HEAD") || idempotency_key.is_some_and(|key| !key.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_one_or_several_origins() {
        assert_eq!(origins("http://127.0.0.1:3000"), vec!["http://127.0.0.1:3000"]);
        assert_eq!(origins(" http://a:1/ , http://b:2,,http://c:3 "), vec!["http://a:1", "http://b:2", "http://c:3"]);
        assert!(origins(" , ").is_empty());
    }

    #[test]
    fn takes_turns_and_passes_over_a_resting_origin() {
        let mut balancer = Balancer::new(3);
        assert_eq!(balancer.plan(0.0, true), vec![0, 1, 2]);
        assert_eq!(balancer.plan(0.0, false), vec![1, 2, 0]);
        assert_eq!(balancer.plan(0.0, true), vec![2, 0, 1]);
        balancer.failed(1, 1_000.0);
        // 1 rests until 6,000: last, whoever's turn it is.
        assert_eq!(balancer.plan(2_000.0, true), vec![0, 2, 1]);
        assert_eq!(balancer.plan(2_000.0, false), vec![2, 0, 1]);
        assert_eq!(balancer.plan(2_000.0, true), vec![2, 0, 1]);
        // Rested: back in turn for what may be sent on, not yet for what may not.
        assert_eq!(balancer.plan(6_000.0, true), vec![0, 1, 2]);
        assert_eq!(balancer.plan(6_000.0, false), vec![2, 0, 1]);
        // It answered: back in turn for everything.
        balancer.answered(1);
        assert_eq!(balancer.plan(6_000.0, false), vec![2, 0, 1]);
        assert_eq!(balancer.plan(6_000.0, false), vec![0, 1, 2]);
        balancer.failed(0, 7_000.0);
        balancer.failed(2, 7_500.0);
        // All but 1 rest; the resting ones follow it, the soonest back first.
        assert_eq!(balancer.plan(8_000.0, true), vec![1, 0, 2]);
        balancer.answered(0);
        assert_eq!(balancer.plan(8_000.0, true), vec![0, 1, 2]);
        assert!(Balancer::new(0).plan(0.0, true).is_empty());
    }

    #[test]
    fn resends_only_what_cannot_act_twice() {
        assert!(may_resend("GET", None));
        assert!(may_resend("HEAD", None));
        assert!(!may_resend("POST", None));
        assert!(!may_resend("POST", Some("  ")));
        assert!(may_resend("POST", Some("order-1")));
    }
}
