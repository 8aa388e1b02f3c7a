//! `lossylink-emu`: the emulator without Python, for the crate's own tests and for debugging.
//! Users run `lossylink emulate` (the Python CLI, same engine, same options).
//!
//! ```text
//! lossylink-emu PRESET|FILE.toml [--cc reno|cubic|bbr] [--bytes N] [--seed N] [--buffer N]
//!               [--set KEY=VALUE]... [--sysctl KEY=VALUE]... [--pcap DIR] [--server CMD]
//!               [--client CMD] [--time-limit S]
//! ```

use emu::{emulate, Congestion, EmuError, EmulateOptions, Programs};
use lossylink::{Scenario, Value};
use std::process::ExitCode;
use std::time::Duration;

fn parse() -> Result<(Scenario, EmulateOptions), String> {
    let mut args = std::env::args().skip(1);
    let target = args
        .next()
        .ok_or("usage: lossylink-emu SCENARIO [options]")?;
    let mut s = if target.ends_with(".toml") {
        let text = std::fs::read_to_string(&target).map_err(|e| format!("{target}: {e}"))?;
        Scenario::from_toml_str(&text).map_err(|e| e.to_string())?
    } else {
        Scenario::preset(&target).map_err(|e| e.to_string())?
    };
    let mut o = EmulateOptions::default();
    let (mut server, mut client, mut bytes) = (None, None, None);
    while let Some(flag) = args.next() {
        let mut val = || args.next().ok_or(format!("{flag}: needs a value"));
        let num = |v: String| -> Result<u64, String> {
            lossylink::units::parse_size(&v).map_err(|e| format!("{flag}: {e}"))
        };
        match flag.as_str() {
            "--cc" => o.cc = Congestion::parse(&val()?).map_err(|e| e.to_string())?,
            "--bytes" => bytes = Some(num(val()?)?),
            "--seed" => o.seed = val()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--buffer" => o.buffer = Some(num(val()?)? as u32),
            "--set" => {
                let kv = val()?;
                let (k, v) = kv.split_once('=').ok_or("--set: KEY=VALUE")?;
                s.set(k, v).map_err(|e| e.to_string())?;
            }
            "--no-realtime" => o.realtime = false,
            "--pcap" => o.pcap_dir = Some(val()?.into()),
            "--sysctl" => {
                let kv = val()?;
                let (k, v) = kv.split_once('=').ok_or("--sysctl: KEY=VALUE")?;
                o.sysctls.push((k.to_string(), v.to_string()));
            }
            "--server" => server = Some(val()?),
            "--client" => client = Some(val()?),
            "--time-limit" => {
                let secs: f64 = val()?.parse().map_err(|e| format!("--time-limit: {e}"))?;
                o.time_limit = Duration::from_secs_f64(secs);
            }
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    o.programs = if server.is_some() || client.is_some() {
        Programs::Commands { server, client }
    } else {
        Programs::Bulk { bytes }
    };
    Ok((s, o))
}

fn main() -> ExitCode {
    let (s, o) = match parse() {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    match emulate(&s, &o) {
        Ok(r) => {
            for (k, v) in r.metrics() {
                let v = match v {
                    Value::Int(i) => i.to_string(),
                    Value::Float(f) => format!("{f:.4}"),
                    Value::Str(s) => s,
                    Value::Bool(b) => b.to_string(),
                };
                println!("{k}\t{v}");
            }
            if r.interrupted {
                ExitCode::from(130)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e @ EmuError::Privilege { .. }) => {
            eprintln!("error: {e}");
            ExitCode::from(77)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
