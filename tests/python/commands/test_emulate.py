"""`lossylink emulate` (docs/emulation.md): real Linux TCP through a scenario's links.

These tests need root (CAP_NET_ADMIN, CAP_SYS_ADMIN), /dev/net/tun and iproute2's network
namespaces; elsewhere they skip and say why. The throughput comparisons with the simulator are
Rust tests (crates/emu/tests/emulate.rs); these check the command line, signals and cleanup.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


def _skip_reason() -> str | None:
    if not sys.platform.startswith("linux"):
        return "emulation needs Linux"
    if os.geteuid() != 0:
        return "emulation needs root (CAP_NET_ADMIN, CAP_SYS_ADMIN)"
    if not Path("/dev/net/tun").exists():
        return "no /dev/net/tun"
    if shutil.which("ip") is None:
        return "iproute2's ip is not installed"
    probe = subprocess.run(["ip", "netns", "list"], capture_output=True)
    if probe.returncode != 0:
        return "network namespaces are not available"
    return None


REASON = _skip_reason()
# Real TCP in real time: `make test-emulation` runs these on their own (CI runs it after the
# main suite), so that a loaded machine's timing does not meet them in the middle of the suite.
pytestmark = [
    pytest.mark.emulation,
    pytest.mark.skipif(REASON is not None, reason=f"emulation unavailable: {REASON}"),
]

CLI = [sys.executable, "-m", "lossylink"]


def _leftovers(pid: int) -> list[str]:
    out = []
    for d in ("/run/netns", "/sys/class/net"):
        p = Path(d)
        if p.exists():
            out += [f"{d}/{n.name}" for n in p.iterdir() if n.name.startswith(f"ll-{pid}-")]
    return out


def test_the_built_in_transfer_reports_throughput_timing_and_pcap(tmp_path: Path) -> None:
    out = subprocess.run(
        [
            *CLI,
            "emulate",
            "lan",
            "--set",
            "error_every=0",
            "--bytes",
            "128KiB",
            "--json",
            "--pcap",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout)
    assert r["complete"] is True
    assert r["transfer_bytes"] == 128 * 1024
    assert 0.5 < r["throughput_mbps"] < 2.0
    assert r["timing_samples"] > 100
    assert r["timing_p99_us"] >= r["timing_median_us"] > 0
    files = sorted(Path(p).name for p in r["pcap"])
    # As released to each end, and per hop direction as the simulator names them.
    assert files == [
        "client-to-server.pcap",
        "hop0-ethernet-forward.pcap",
        "hop0-ethernet-reverse.pcap",
        "hop1-wavelan-forward.pcap",
        "hop1-wavelan-reverse.pcap",
        "server-to-client.pcap",
    ]
    # Every released datagram is in the capture: a 24-byte header, then 16 + 14 + IP bytes each.
    c2s = (tmp_path / "client-to-server.pcap").stat().st_size
    assert c2s == 24 + 30 * r["packets_client_to_server"] + r["bytes_client_to_server"]


def test_compare_prints_the_simulated_run_beside_under_the_same_names() -> None:
    args = [*CLI, "emulate", "lan", "--set", "scheme=ll-tcp-aware", "--bytes", "256KiB"]
    out = subprocess.run(
        [*args, "--compare", "--json"], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout)
    emulated, simulated = r["emulated"], r["simulated"]
    assert emulated["complete"] is True
    assert simulated["transfer_bytes"] == emulated["transfer_bytes"] == 256 * 1024
    assert simulated["scheme"] == emulated["scheme"] == "ll-tcp-aware"
    for key in ("throughput_mbps", "completion_s", "local_retransmissions"):
        assert isinstance(emulated[key], type(simulated[key])), key
    # Both are real transfers of the same bytes over the same 2 Mb/s WaveLAN hop.
    assert 0.5 < emulated["throughput_mbps"] / simulated["throughput_mbps"] < 1.5
    table = subprocess.run([*args, "--compare"], capture_output=True, text=True, timeout=120)
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    assert lines[0].split() == ["metric", "emulated", "simulated"]
    row = next(line.split() for line in lines if line.startswith("throughput_mbps "))
    assert len(row) == 3
    assert float(row[1]) > 0
    assert float(row[2]) > 0
    # An emulator-only metric has no simulated value.
    row = next(line.split() for line in lines if line.startswith("timing_median_us "))
    assert row[2] == "-"


def test_compare_needs_the_built_in_transfer() -> None:
    out = subprocess.run(
        [*CLI, "emulate", "lan", "--client", "true", "--compare"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert "--compare" in out.stderr


def test_sysctl_is_set_in_the_namespaces_and_other_keys_are_refused() -> None:
    out = subprocess.run(
        [
            *CLI,
            "emulate",
            "lan",
            "--sysctl",
            "net.ipv4.tcp_sack=0",
            "--client",
            "cat /proc/sys/net/ipv4/tcp_sack",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0] == "0"
    out = subprocess.run(
        [*CLI, "emulate", "lan", "--sysctl", "kernel.panic=1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1
    assert "kernel.panic" in out.stderr


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_ends_the_run_and_removes_the_namespaces(sig: signal.Signals) -> None:
    p = subprocess.Popen(
        [*CLI, "emulate", "lan", "--server", "sleep 30", "--time-limit", "30"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    ns = Path(f"/run/netns/ll-{p.pid}-s")
    t0 = time.monotonic()
    while not ns.exists():
        assert time.monotonic() - t0 < 20, "the namespace never appeared"
        assert p.poll() is None, p.communicate()
        time.sleep(0.02)
    time.sleep(0.3)
    p.send_signal(sig)
    _, err = p.communicate(timeout=20)
    assert p.returncode == 130, err
    assert _leftovers(p.pid) == []


def test_without_the_privilege_it_says_which_one_is_missing() -> None:
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("util-linux's setpriv is not installed")
    out = subprocess.run(
        [setpriv, "--bounding-set", "-net_admin", *CLI, "emulate", "lan"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert "missing privilege CAP_NET_ADMIN" in lines[0]


def test_a_bad_congestion_control_is_one_line() -> None:
    out = subprocess.run(
        [*CLI, "emulate", "lan", "--cc", "vegas"], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 2
    assert "vegas" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
