//! How many tables one address may make a minute: a sliding count per address, so one client
//! (or one web page a user opened) cannot fill the server's table cap.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Addresses remembered at most: past it, the oldest are forgotten (a flood from many
/// addresses is bounded by the table cap and the connection caps instead).
const MAX_ADDRESSES: usize = 65_536;
const WINDOW: Duration = Duration::from_secs(60);

/// Table creations per address in the last minute.
pub struct CreationRate {
    per_minute: usize,
    recent: Mutex<HashMap<IpAddr, VecDeque<Instant>>>,
}

impl CreationRate {
    pub fn new(per_minute: usize) -> CreationRate {
        CreationRate {
            per_minute,
            recent: Mutex::new(HashMap::new()),
        }
    }

    /// The most an address may make in a minute.
    pub fn per_minute(&self) -> usize {
        self.per_minute
    }

    /// Count a creation from `ip`, or the whole seconds until it may make one.
    pub fn admit(&self, ip: IpAddr) -> Result<(), u64> {
        self.admit_at(ip, Instant::now())
    }

    fn admit_at(&self, ip: IpAddr, now: Instant) -> Result<(), u64> {
        let Ok(mut recent) = self.recent.lock() else {
            return Err(1);
        };
        if recent.len() >= MAX_ADDRESSES && !recent.contains_key(&ip) {
            recent.retain(|_, times| times.back().is_some_and(|t| now - *t < WINDOW));
            if recent.len() >= MAX_ADDRESSES {
                return Err(WINDOW.as_secs());
            }
        }
        let times = recent.entry(ip).or_default();
        while times.front().is_some_and(|t| now - *t >= WINDOW) {
            times.pop_front();
        }
        if times.len() >= self.per_minute {
            let oldest = times.front().copied().unwrap_or(now);
            let wait = WINDOW.saturating_sub(now - oldest);
            return Err(wait.as_secs().max(1));
        }
        times.push_back(now);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_makes_its_tables_a_minute_and_then_waits_for_the_oldest_to_pass() {
        let rate = CreationRate::new(3);
        let a: IpAddr = "10.0.0.1".parse().expect("an address");
        let b: IpAddr = "10.0.0.2".parse().expect("an address");
        let start = Instant::now();
        for i in 0..3 {
            assert_eq!(rate.admit_at(a, start + Duration::from_secs(i)), Ok(()));
        }
        assert_eq!(rate.admit_at(a, start + Duration::from_secs(10)), Err(50));
        // Another address is not held back.
        assert_eq!(rate.admit_at(b, start + Duration::from_secs(10)), Ok(()));
        // A minute after the first, one more.
        assert_eq!(rate.admit_at(a, start + Duration::from_secs(60)), Ok(()));
        assert!(rate.admit_at(a, start + Duration::from_secs(60)).is_err());
    }
}
