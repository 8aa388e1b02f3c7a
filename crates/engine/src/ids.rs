//! Typed ids (house rule 6): a node index can never be passed where a hop index is expected.

use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! typed_id {
    ($(#[$m:meta])* $name:ident, $prefix:literal) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub struct $name(pub u32);

        impl $name {
            /// The id as an index into the owning vector.
            pub const fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

typed_id!(
    /// A node (host, router or base station) of a topology.
    NodeId, "node"
);
typed_id!(
    /// A hop: the connection between two neighbouring nodes of a chain.
    HopId, "hop"
);
typed_id!(
    /// One direction of a hop: a simplex transmit port with its own queue and error model.
    PortId, "port"
);
typed_id!(
    /// A transport connection.
    FlowId, "flow"
);
