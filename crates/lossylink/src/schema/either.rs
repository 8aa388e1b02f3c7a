//! Deserializers of the fields that take one of two shapes, written by hand so that a wrong
//! value is reported at the leaf that is wrong, with what is allowed there (serde's untagged
//! enums only say that no variant matched, and name the parent).

use super::{DisciplineDoc, PerFrameDoc, PersistenceDoc, QueueDoc};
use crate::units::Dur;
use serde::de::value::MapAccessDeserializer;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;

impl<'de> Deserialize<'de> for PerFrameDoc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = PerFrameDoc;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "a duration such as \"800us\", or a table of named durations such as { preamble = \"192us\", sifs = \"10us\" }",
                )
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<PerFrameDoc, E> {
                Dur::deserialize(de::value::StrDeserializer::<E>::new(v)).map(PerFrameDoc::Total)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<PerFrameDoc, A::Error> {
                let mut parts = BTreeMap::new();
                // Each value as a duration: an error names its key (serde_path_to_error).
                while let Some(k) = m.next_key::<String>()? {
                    let v: Dur = m.next_value()?;
                    parts.insert(k, v);
                }
                Ok(PerFrameDoc::Parts(parts))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for PersistenceDoc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = PersistenceDoc;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number of retransmissions (0 or more) or \"persistent\"")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<PersistenceDoc, E> {
                u32::try_from(v).map(PersistenceDoc::Limit).map_err(|_| {
                    E::custom(format!(
                        "{v} is too large; allowed: 0..=4294967295 or \"persistent\""
                    ))
                })
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<PersistenceDoc, E> {
                match u64::try_from(v) {
                    Ok(u) => self.visit_u64(u),
                    Err(_) => Err(E::custom(format!(
                        "{v} is negative; allowed: a number of retransmissions (0 or more) or \"persistent\""
                    ))),
                }
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<PersistenceDoc, E> {
                Ok(PersistenceDoc::Word(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

struct QueueVisitor;

impl<'de> Visitor<'de> for QueueVisitor {
    type Value = QueueDoc;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(
            "a packet count (drop-tail) or a table { kind = \"droptail\" | \"red\" | \"codel\" | \"fq_codel\", ... }",
        )
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<QueueDoc, E> {
        u32::try_from(v).map(QueueDoc::Packets).map_err(|_| {
            E::invalid_value(de::Unexpected::Unsigned(v), &"a packet count below 2^32")
        })
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<QueueDoc, E> {
        match u64::try_from(v) {
            Ok(v) => self.visit_u64(v),
            Err(_) => Err(E::invalid_value(de::Unexpected::Signed(v), &self)),
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<QueueDoc, A::Error> {
        DisciplineDoc::deserialize(MapAccessDeserializer::new(map)).map(QueueDoc::Discipline)
    }
}

impl<'de> Deserialize<'de> for QueueDoc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<QueueDoc, D::Error> {
        d.deserialize_any(QueueVisitor)
    }
}
