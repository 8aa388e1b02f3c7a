#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! Classify coarse timeouts by what preceded them (diagnostic).
fn main() -> Result<(), lossylink::Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut s = lossylink::Scenario::preset(args.first().map_or("lan", |s| s.as_str()))?;
    s.set("buffer", args.get(1).map_or("32KiB", |s| s.as_str()))?;
    let (mut after_fr, mut backoff, mut other, mut total_to) = (0, 0, 0, 0);
    let mut gap = 0.0;
    for seed in 1..=10 {
        let r = lossylink::run(&s, seed, &lossylink::RunOptions::traced())?;
        let t = r.trace.unwrap();
        let ev = &t.tables[1];
        let (lossylink::Column::F64(time), lossylink::Column::Str(kind)) =
            (&ev.columns[0].1, &ev.columns[1].1)
        else {
            panic!()
        };
        let mut last_fr = -10.0;
        let mut last_to = -10.0;
        let mut last_ack = 0.0;
        for (t, k) in time.iter().zip(kind) {
            match k.as_str() {
                "fast-retransmit" => last_fr = *t,
                "ack" => last_ack = *t,
                "timeout" => {
                    total_to += 1;
                    gap += t - last_ack;
                    if t - last_to < 8.0 && last_to > last_fr {
                        backoff += 1
                    } else if t - last_fr < 4.0 {
                        after_fr += 1
                    } else {
                        other += 1
                    }
                    last_to = *t;
                }
                _ => {}
            }
        }
    }
    println!("timeouts {total_to}: after a recent FR {after_fr}, repeated (backoff) {backoff}, other {other}; mean silence before TO {:.2}s", gap / total_to as f64);
    Ok(())
}
