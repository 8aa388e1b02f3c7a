//! RFC 7323 window scaling (§2): the 16-bit window field counts units of 2^shift bytes, the
//! shift each end announces in its SYN's Window Scale option (kind 3, length 3; 4 bytes on the
//! wire with its NOP). The model opens connections without a SYN by default, so both ends are
//! configured with the shift at set-up, as they are with timestamps and SACK; with `tcp.syn`
//! the SYN and SYN-ACK carry the option.
//!
//! - The shift is chosen from the receive buffer: the smallest that brings it under 65 536
//!   (RFC 7323 §2.3, "the shift count ... based on the maximum receive buffer space"; Linux
//!   `tcp_select_initial_window`: `while (space > U16_MAX && wscale < 14) { space >>= 1;
//!   wscale++; }`), at most 14 (§2.3), so windows reach 65 535 · 2^14 bytes, just below 1 GiB.
//! - The advertised window is the free space rounded up to a whole unit, as Linux
//!   `__tcp_select_window` does (`ALIGN(window, 1 << rcv_wscale)`) so that the right edge never
//!   moves left through the rounding; RFC 7323 §2.3 only shifts right (truncating) — the
//!   difference is below one unit.

/// The largest shift (RFC 7323 §2.3).
pub const MAX_SHIFT: u8 = 14;

/// The shift a receive buffer of `buffer` bytes announces (RFC 7323 §2.3, Linux
/// `tcp_select_initial_window`).
pub fn shift_for(buffer: u32) -> u8 {
    let mut space = buffer;
    let mut shift = 0;
    while space > 65535 && shift < MAX_SHIFT {
        space >>= 1;
        shift += 1;
    }
    shift
}

/// The largest window a receiver can advertise with `shift` (None: no scaling, 65 535).
pub fn max_window(shift: Option<u8>) -> u32 {
    65535u32 << shift.unwrap_or(0).min(MAX_SHIFT)
}

/// The window to advertise for `window` bytes: rounded up to a whole unit of 2^shift (Linux
/// `__tcp_select_window`), at most [`max_window`].
pub fn advertise(window: u64, shift: Option<u8>) -> u32 {
    let unit = 1u64 << shift.unwrap_or(0).min(MAX_SHIFT);
    (window.div_ceil(unit) * unit).min(u64::from(max_window(shift))) as u32
}

/// The 16-bit window field carrying `wnd` bytes with `shift` (RFC 7323 §2.3: shifted right).
pub fn field(wnd: u32, shift: u8) -> u16 {
    (wnd >> shift.min(MAX_SHIFT)).min(65535) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shift_is_the_smallest_that_fits_the_buffer() {
        assert_eq!(shift_for(65535), 0);
        assert_eq!(shift_for(65536), 1);
        assert_eq!(shift_for(1 << 20), 5);
        // 16 MiB: 2^24 >> 9 = 32 768.
        assert_eq!(shift_for(16 << 20), 9);
        // Linux's tcp_rmem[2] default, 6 MiB: wscale 7.
        assert_eq!(shift_for(6 << 20), 7);
        assert_eq!(shift_for(1 << 30), MAX_SHIFT);
        assert_eq!(shift_for(u32::MAX), MAX_SHIFT);
    }

    #[test]
    fn windows_round_up_to_a_unit_and_stop_below_one_gib() {
        assert_eq!(max_window(None), 65535);
        assert_eq!(max_window(Some(14)), 1_073_725_440);
        assert_eq!(advertise(100_000, None), 65535);
        assert_eq!(advertise(1000, None), 1000);
        assert_eq!(advertise(100_001, Some(9)), 100_352);
        assert_eq!(advertise(1 << 30, Some(14)), 1_073_725_440);
        assert_eq!(field(100_352, 9), 196);
        assert_eq!(field(65535, 0), 65535);
    }
}
