//! The profile-guided build's training workload, built in the extension's dependency graph
//! (`.ci/pgo`): the mix of `crates/lossylink/examples/pgo_train.rs`, included as a module. A
//! profile applies only to functions whose crates were built with the same dependencies and
//! features (their symbol names carry that hash), and the extension's graph (pyo3, numpy)
//! differs from the benchmark's (criterion, proptest), so each is trained in its own.

#[path = "../../lossylink/examples/pgo_train.rs"]
mod train;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    train::main()
}
