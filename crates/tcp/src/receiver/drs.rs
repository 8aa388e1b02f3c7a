//! Linux's receive-buffer autotuning ("dynamic right-sizing", DRS; `net.ipv4.tcp_moderate_rcvbuf
//! = 1`), with [`ReceiverConfig::autotune`](super::ReceiverConfig::autotune). The sources are
//! Linux 6.x `net/ipv4/tcp_input.c` and `tcp_output.c`:
//!
//! - the buffer starts at `tcp_rmem[1]` ([`Autotune::rmem_default`], 131072 bytes) and the
//!   window offered from `space` bytes of buffer is `tcp_win_from_space(space)` = space / 2
//!   (`tcp_adv_win_scale = 1`, and `TCP_DEFAULT_SCALING_RATIO` since 6.5); the first window is
//!   that, rounded down to whole segments (`tcp_select_initial_window`); `tcp_init_buffer_space`
//!   clamps the window one segment below it ("Force reservation of one segment") and starts the
//!   per-RTT measure at `min(rcv_ssthresh, rcv_wnd, TCP_INIT_CWND · advmss)`;
//! - the receiver estimates the round trip itself (`tcp_rcv_rtt_update`, ×8 fixed point): from
//!   the echoed timestamp of each full-sized segment with a new TSecr (`tcp_rcv_rtt_measure_ts`,
//!   smoothed with gain 1/8, a smaller sample taken at once), and once per window of data, the
//!   time for `rcv_nxt` to pass the right edge offered at the start (`tcp_rcv_rtt_measure`, a
//!   sample taken only if smaller);
//! - at least one estimated RTT after the last measure, `tcp_rcv_space_adjust` compares the bytes
//!   the application copied since (`copied`) with the previous measure (`space`); if more, the
//!   window needed is `rcvwin = 2·copied + 16·advmss`, plus twice its relative growth
//!   (`rcvwin · (copied − space) / space`, for a sender in slow start), and the buffer becomes
//!   `tcp_space_from_win(rcvwin)` = 2 · rcvwin if larger, at most `tcp_rmem[2]`
//!   ([`Autotune::rmem_max`]); the window clamp follows (`window_clamp = tcp_win_from_space`);
//! - the offered window grows towards the clamp by two segments per in-order data segment
//!   (`tcp_grow_window`, `rcv_ssthresh += 2·advmss`) and is the free space, the window of the
//!   buffer less what out-of-order data occupies (`tcp_space`: `sk_rmem_alloc` holds the
//!   out-of-order queue, charged at its truesize, twice its payload at the ratio above), at most
//!   `rcv_ssthresh` (`__tcp_select_window`).
//!
//! The application reads every in-order byte at once, so `copied_seq` is `rcv_nxt` and
//! `tcp_rcv_space_adjust` runs on every in-order arrival (Linux runs it from `tcp_recvmsg`).
//! Deliberate simplifications: the truesize ratio is the fixed 1/2 (6.5+ measures it from each
//! skb's `len / truesize`), no memory pressure, and the measure starts at the first data segment
//! (Linux: when the connection is established, one round trip earlier with a handshake).

use engine::{SimDuration, SimTime};

/// Receive-buffer autotuning's knobs (Linux `net.ipv4.tcp_rmem`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Autotune {
    /// The initial receive buffer in bytes of memory (`tcp_rmem[1]`, 131072).
    pub rmem_default: u32,
    /// The largest receive buffer (`tcp_rmem[2]`: 32 MiB since Linux 6.16, 6 MiB before).
    pub rmem_max: u32,
}

impl Autotune {
    /// The window first offered: the initial buffer's window rounded down to whole segments
    /// (`tcp_select_initial_window`: 65 160 bytes for 131 072 and 1448-byte segments).
    pub fn initial_window(&self, mss: u32) -> u32 {
        let space = win_from_space(u64::from(self.rmem_default)) as u32;
        if space > mss {
            space / mss * mss
        } else {
            space
        }
    }
}

/// The window `space` bytes of buffer offer: half (`tcp_win_from_space`, ratio 1/2).
pub fn win_from_space(space: u64) -> u64 {
    space / 2
}

/// The buffer a window of `win` bytes needs (`tcp_space_from_win`).
pub fn space_from_win(win: u64) -> u64 {
    win.saturating_mul(2)
}

/// A receiver's autotuning state.
#[derive(Clone, Debug)]
pub(crate) struct Drs {
    mss: u64,
    rmem_max: u64,
    /// `sk_rcvbuf`.
    rcvbuf: u64,
    /// `window_clamp`.
    clamp: u64,
    /// `rcv_ssthresh`: the offered window's current bound.
    rcv_ssthresh: u64,
    /// `rcvq_space.space`, `.seq` and `.time` (None until the first data segment).
    space: u64,
    seq: u64,
    time: Option<SimTime>,
    /// `rcv_rtt_est.rtt_us` in nanoseconds, ×8 (0: no estimate yet).
    rtt8: u64,
    /// The last TSecr a sample was taken from (`rcv_rtt_last_tsecr`).
    last_tsecr: u32,
    /// The per-window measure: its right edge and start (`rcv_rtt_est.seq`, `.time`).
    est_seq: u64,
    est_time: Option<SimTime>,
    /// Times the buffer grew.
    pub(crate) growths: u64,
}

impl Drs {
    /// The state at set-up (`tcp_select_initial_window`, `tcp_init_buffer_space`).
    pub(crate) fn new(a: Autotune, mss: u32) -> Self {
        let mss = u64::from(mss);
        let rcvbuf = u64::from(a.rmem_default);
        let full = win_from_space(rcvbuf);
        let rcv_wnd = u64::from(a.initial_window(mss as u32));
        // tcp_init_buffer_space: "Force reservation of one segment".
        let clamp = if full > 2 * mss {
            (full - mss).max(2 * mss)
        } else {
            full
        };
        let rcv_ssthresh = rcv_wnd.min(clamp);
        Drs {
            mss,
            rmem_max: u64::from(a.rmem_max).max(rcvbuf),
            rcvbuf,
            clamp,
            rcv_ssthresh,
            space: rcv_ssthresh.min(rcv_wnd).min(10 * mss),
            seq: 0,
            time: None,
            rtt8: 0,
            last_tsecr: 0,
            est_seq: 0,
            est_time: None,
            growths: 0,
        }
    }

    /// The receive buffer now (`sk_rcvbuf`).
    pub(crate) fn rcvbuf(&self) -> u64 {
        self.rcvbuf
    }

    /// The receiver's RTT estimate (zero before one).
    pub(crate) fn rtt(&self) -> SimDuration {
        SimDuration(self.rtt8 / 8)
    }

    /// The window to offer with `ooo` bytes of payload out of order (`__tcp_select_window`).
    pub(crate) fn window(&self, ooo: u64) -> u64 {
        let free = win_from_space(self.rcvbuf.saturating_sub(space_from_win(ooo)));
        free.min(self.clamp).min(self.rcv_ssthresh)
    }

    /// `tcp_rcv_rtt_update`: `sample` in ns; `win_dep`: the per-window measure, taken only
    /// when smaller.
    fn rtt_update(&mut self, sample: u64, win_dep: bool) {
        let m = sample.saturating_mul(8);
        if self.rtt8 == 0 || m < self.rtt8 {
            self.rtt8 = m;
        } else if !win_dep {
            self.rtt8 = self.rtt8 - self.rtt8 / 8 + sample;
        }
    }

    /// An in-order data segment of `len` bytes arrived at `now` and moved `rcv_nxt` to
    /// `rcv_nxt`; the application read it at once. `ts`: the segment's TSecr and the
    /// receiver's own timestamp clock (ticks now, tick length) if timestamps are on;
    /// `rcv_wnd`: the window offered last. Returns whether `tcp_grow_window` raised the
    /// offered window's bound (`rcv_ssthresh`): Linux then sets `icsk_ack.quick |= 1`, so that
    /// this segment is acknowledged at once (the caller's quick-ack state, `quickack.rs`).
    pub(crate) fn on_in_order(
        &mut self,
        now: SimTime,
        len: u32,
        rcv_nxt: u64,
        rcv_wnd: u64,
        ts: Option<(u32, u32, SimDuration)>,
    ) -> bool {
        // tcp_rcv_rtt_measure_ts: a full-sized segment echoing a new TSecr.
        if let Some((ecr, ticks_now, tick)) = ts {
            if ecr != 0 && ecr != self.last_tsecr {
                self.last_tsecr = ecr;
                let delta = ticks_now.wrapping_sub(ecr);
                if u64::from(len) >= self.mss && delta > 0 && delta < 1 << 30 {
                    self.rtt_update(u64::from(delta) * tick.as_nanos(), false);
                }
            }
        }
        // tcp_rcv_rtt_measure: once per window of data.
        match self.est_time {
            Some(_) if rcv_nxt < self.est_seq => {}
            start => {
                if let Some(t) = start {
                    let d = now.as_nanos().saturating_sub(t.as_nanos()).max(1);
                    self.rtt_update(d, true);
                }
                self.est_seq = rcv_nxt + rcv_wnd;
                self.est_time = Some(now);
            }
        }
        // tcp_grow_window (from tcp_event_data_recv, for segments of 128 bytes or more).
        let grew = len >= 128 && self.rcv_ssthresh < self.clamp;
        if grew {
            self.rcv_ssthresh = (self.rcv_ssthresh + 2 * self.mss).min(self.clamp);
        }
        self.space_adjust(now, rcv_nxt);
        grew
    }

    /// `tcp_rcv_space_adjust` with `copied_seq` = `rcv_nxt`.
    fn space_adjust(&mut self, now: SimTime, copied_seq: u64) {
        let Some(time) = self.time else {
            self.time = Some(now);
            return;
        };
        let elapsed = now.as_nanos().saturating_sub(time.as_nanos());
        if self.rtt8 == 0 || elapsed < self.rtt8 / 8 {
            return;
        }
        let copied = copied_seq - self.seq;
        if copied > self.space {
            self.grow(copied);
            self.space = copied;
        }
        self.seq = copied_seq;
        self.time = Some(now);
    }

    /// The growth rule of `tcp_rcv_space_adjust` (Linux 6.x): `copied` bytes were read in the
    /// last RTT, `self.space` in the one before.
    fn grow(&mut self, copied: u64) {
        let mut rcvwin = 2 * copied + 16 * self.mss;
        let grow = rcvwin * (copied - self.space) / self.space.max(1);
        rcvwin += 2 * grow;
        let rcvbuf = space_from_win(rcvwin).min(self.rmem_max);
        if rcvbuf > self.rcvbuf {
            self.rcvbuf = rcvbuf;
            self.clamp = win_from_space(rcvbuf);
            self.growths += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1448;
    const LINUX: Autotune = Autotune {
        rmem_default: 131_072,
        rmem_max: 32 << 20,
    };

    /// Set-up, by hand from `tcp_select_initial_window` and `tcp_init_buffer_space`: 131 072
    /// bytes of buffer offer 65 536, rounded down to 45 segments = 65 160 (the SYN-ACK's
    /// window), clamped one segment below the full window (64 088); the first measure counts
    /// from 10 segments (14 480).
    #[test]
    fn the_initial_window_and_measure_are_linuxs() {
        assert_eq!(LINUX.initial_window(MSS), 65_160);
        let d = Drs::new(LINUX, MSS);
        assert_eq!(
            (d.rcvbuf, d.clamp, d.rcv_ssthresh),
            (131_072, 64_088, 64_088)
        );
        assert_eq!(d.space, 14_480);
        assert_eq!(d.window(0), 64_088);
        // Out-of-order data is charged at twice its payload: 10 000 bytes take 20 000 of buffer.
        assert_eq!(d.window(10_000), 65_536 - 10_000);
    }

    /// The growth rule with explicit numbers: an RTT of 50 ms, 20 segments (28 960 bytes)
    /// read in it after 14 480 in the first measure: rcvwin = 2·28 960 + 16·1448 = 81 088,
    /// grown by 2 · 81 088 · (28 960 − 14 480) / 14 480 = 162 176 to 243 264; the buffer
    /// becomes 486 528 and the clamp 243 264. A measure that reads no more than the last leaves
    /// the buffer alone; the buffer never passes `tcp_rmem[2]`.
    #[test]
    fn the_buffer_grows_to_twice_the_window_for_what_was_read_per_rtt() {
        let mut d = Drs::new(LINUX, MSS);
        d.rtt8 = 8 * 50_000_000;
        let ms = |v: u64| SimTime(v * 1_000_000);
        d.space_adjust(ms(0), 0); // the first data segment starts the measure
        d.space_adjust(ms(49), 20_000); // under one RTT: nothing
        assert_eq!((d.rcvbuf, d.seq), (131_072, 0));
        d.space_adjust(ms(50), 28_960);
        assert_eq!((d.rcvbuf, d.clamp, d.space), (486_528, 243_264, 28_960));
        assert_eq!(d.seq, 28_960);
        // The next RTT reads the same: no growth, no new space.
        d.space_adjust(ms(100), 2 * 28_960);
        assert_eq!((d.rcvbuf, d.space), (486_528, 28_960));
        // A huge jump is capped at tcp_rmem[2].
        d.space_adjust(ms(150), 2 * 28_960 + (64 << 20));
        assert_eq!(d.rcvbuf, 32 << 20);
        assert_eq!(d.clamp, 16 << 20);
    }

    /// `tcp_rcv_rtt_update`: the first sample is taken, a smaller one at once, a larger one
    /// smoothed with gain 1/8 from timestamps and ignored from the per-window measure.
    #[test]
    fn the_receivers_rtt_estimate_follows_tcp_rcv_rtt_update() {
        let mut d = Drs::new(LINUX, MSS);
        d.rtt_update(80, false);
        assert_eq!(d.rtt(), SimDuration(80));
        d.rtt_update(40, true);
        assert_eq!(d.rtt(), SimDuration(40));
        d.rtt_update(120, true);
        assert_eq!(d.rtt(), SimDuration(40));
        d.rtt_update(120, false);
        assert_eq!(d.rtt8, 320 - 40 + 120);
    }

    /// `tcp_grow_window` reports each growth of `rcv_ssthresh` (the receiver then acknowledges
    /// at once): none at the clamp, two segments per segment of at least 128 bytes below it,
    /// and none for a smaller one.
    #[test]
    fn in_order_segments_report_the_growth_of_the_windows_bound() {
        let mut d = Drs::new(LINUX, MSS);
        let at = SimTime(0);
        assert!(
            !d.on_in_order(at, MSS, 1448, 65_160, None),
            "rcv_ssthresh is the clamp"
        );
        d.clamp = 64_088 + 3 * 1448;
        assert!(d.on_in_order(at, MSS, 2896, 65_160, None));
        assert_eq!(d.rcv_ssthresh, 64_088 + 2 * 1448);
        assert!(
            !d.on_in_order(at, 100, 2996, 65_160, None),
            "under 128 bytes"
        );
        assert!(d.on_in_order(at, MSS, 4444, 65_160, None));
        assert_eq!(d.rcv_ssthresh, d.clamp, "at most the clamp");
        assert!(!d.on_in_order(at, MSS, 5892, 65_160, None));
    }
}
