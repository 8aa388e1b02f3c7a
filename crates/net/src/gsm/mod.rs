//! The GSM circuit-switched data world of Ludwig (2000), Ch. 2-4: the block-erasure channel
//! below RLP ([`erasure`]), ReTracer's best-case analysis of it ([`retrace`]) and Van Jacobson
//! header compression at the PPP ends ([`vj`]). The RLP link itself is a medium
//! (`crate::medium::gsm`).

pub mod erasure;
pub mod fading;
pub mod retrace;
pub mod vj;

pub use erasure::{BlockTrace, BurstMix, MinuteBler, Profile, TraceError};
pub use fading::{max_retransmissions, Fading};
pub use retrace::{retrace_e2e, retrace_rlp, E2eRetrace, Packing, RetraceError, RlpRetrace};
