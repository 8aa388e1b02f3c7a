"""pcap files of a run, read back with an independent reader (dpkt) and, where installed, with
tshark, mergecap and tcptrace; every count is checked against the simulator's own counters."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import dpkt
import pytest
from click.testing import CliRunner

import lossylink as ll
from lossylink.cli import cli

FILES = (
    "hop0-ethernet-forward.pcap",
    "hop0-ethernet-reverse.pcap",
    "hop1-wavelan-forward.pcap",
    "hop1-wavelan-reverse.pcap",
)
SMART_EXID = 0x534D
ELN_EXID = 0x454C
LOSSY = {"transfer": "256KiB", "error_every": "16KiB"}


def _fold(total: int) -> int:
    while total > 0xFFFF:
        total = (total & 0xFFFF) + (total >> 16)
    return total


def _sum16(data: bytes) -> int:
    if len(data) % 2:
        data += b"\0"
    return _fold(sum(int.from_bytes(data[i : i + 2], "big") for i in range(0, len(data), 2)))


@dataclass
class FileStats:
    """What one pcap file holds, counted independently of the simulator."""

    data: int = 0
    acks: int = 0
    retransmissions: int = 0
    bad_tcp_checksums: int = 0
    option_kinds: set[int] = field(default_factory=set)
    smart_acks: int = 0
    eln_acks: int = 0
    sack_acks: int = 0
    ttls: set[int] = field(default_factory=set)


def read(path: Path) -> FileStats:
    """Parse every frame with dpkt; verify lengths and checksums by hand."""
    out = FileStats()
    highest: int | None = None
    last = 0.0
    with path.open("rb") as fh:
        reader = dpkt.pcap.Reader(fh)
        assert reader.datalink() == dpkt.pcap.DLT_EN10MB
        for ts, buf in reader:
            assert ts >= last, "timestamps in order"
            last = ts
            eth = dpkt.ethernet.Ethernet(buf)
            ip = eth.data
            assert isinstance(ip, dpkt.ip.IP)
            assert ip.len == len(buf) - 14, "IPv4 total length = frame - Ethernet header"
            assert _sum16(bytes(buf[14:34])) == 0xFFFF, "IPv4 header checksum"
            out.ttls.add(ip.ttl)
            tcp = ip.data
            assert isinstance(tcp, dpkt.tcp.TCP)
            raw_tcp = bytes(buf[34:])
            pseudo = ip.src + ip.dst + b"\0\x06" + len(raw_tcp).to_bytes(2, "big")
            out.bad_tcp_checksums += _sum16(pseudo + raw_tcp) != 0xFFFF
            opts = dpkt.tcp.parse_opts(tcp.opts)
            kinds = {k for k, _ in opts}
            out.option_kinds |= kinds
            if tcp.data:
                out.data += 1
                seq, end = tcp.seq, (tcp.seq + len(tcp.data)) % 2**32
                if highest is not None and ((seq - highest) % 2**32) >= 2**31:
                    out.retransmissions += 1
                if highest is None or 0 < ((end - highest) % 2**32) < 2**31:
                    highest = end
            else:
                out.acks += 1
                out.sack_acks += dpkt.tcp.TCP_OPT_SACK in kinds
                for kind, value in opts:
                    if kind == 254 and int.from_bytes(value[:2], "big") == SMART_EXID:
                        out.smart_acks += 1
                    if kind == 253 and int.from_bytes(value[:2], "big") == ELN_EXID:
                        out.eln_acks += 1
    return out


def run_with_pcap(directory: Path, scheme: str, seed: int = 2) -> tuple[ll.RunResult, dict]:
    r = ll.run("lan", seed=seed, scheme=scheme, pcap=directory, **LOSSY)
    assert r.pcap is not None
    assert [p.name for p in r.pcap] == list(FILES)
    return r, {p.name: read(p) for p in r.pcap}


@pytest.mark.parametrize(
    "scheme",
    [
        "e2e",
        "e2e-ietf-sack+eifel",
        "e2e-smart",
        "e2e-sack-eln",
        "ll-tcp-aware",
        "ll-smart-tcp-aware",
    ],
)
def test_files_agree_with_the_counters(tmp_path: Path, scheme: str) -> None:
    r, f = run_with_pcap(tmp_path, scheme)
    m = r.metrics
    assert m["queue_drops"] == 0, "every count below assumes no queue drops"
    src_data, src_acks = f["hop0-ethernet-forward.pcap"], f["hop0-ethernet-reverse.pcap"]
    wl_data, wl_acks = f["hop1-wavelan-forward.pcap"], f["hop1-wavelan-reverse.pcap"]
    # Data segments and repeats of already-sent sequence ranges, per data direction.
    assert src_data.data == m["sender_segments"]
    assert src_data.retransmissions == m["sender_retransmitted_segments"]
    assert wl_data.data == m["wireless_data_frames"]
    assert wl_data.retransmissions == (
        m["sender_retransmitted_segments"] + m["local_retransmissions"]
    )
    # Every ACK the receiver sent crosses the wireless hop; those not corrupted there and not
    # absorbed by the base station cross the wired hop.
    assert wl_acks.acks == m["receiver_acks"]
    assert src_acks.acks == (
        m["receiver_acks"] - m["corrupted_ack_frames"] - m["bs_dupacks_suppressed"]
    )
    assert src_acks.data == wl_acks.data == src_data.acks == wl_data.acks == 0
    # Corrupted frames are captured with a TCP checksum that fails (Balakrishnan97 §3.5).
    assert wl_data.bad_tcp_checksums == m["corrupted_data_frames"]
    assert wl_acks.bad_tcp_checksums == m["corrupted_ack_frames"]
    assert src_data.bad_tcp_checksums == src_acks.bad_tcp_checksums == 0
    # TTL 64 on the first hop, 63 after the base station forwarded.
    assert src_data.ttls == {64}
    assert wl_acks.ttls == {64}
    assert wl_data.ttls == {63}
    assert src_acks.ttls <= {63}
    # Options as the scheme sends them.
    timestamps = "+eifel" in scheme
    for stats in f.values():
        assert (dpkt.tcp.TCP_OPT_TIMESTAMP in stats.option_kinds) == (
            timestamps and bool(stats.data or stats.acks)
        )
    sack = "sack" in scheme
    assert (wl_acks.sack_acks > 0) == sack
    smart = "smart" in scheme
    assert (wl_acks.smart_acks == wl_acks.acks) == smart
    if scheme == "ll-smart-tcp-aware":
        # The tcp-aware base station strips the SMART option before the wired hop.
        assert src_acks.smart_acks == 0
    assert wl_acks.eln_acks == m["receiver_eln_acks"]


def test_same_seed_gives_byte_identical_files(tmp_path: Path) -> None:
    a = ll.run("lan", seed=4, scheme="ll-tcp-aware", pcap=tmp_path / "a", **LOSSY)
    b = ll.run("lan", seed=4, scheme="ll-tcp-aware", pcap=tmp_path / "b", **LOSSY)
    c = ll.run("lan", seed=5, scheme="ll-tcp-aware", pcap=tmp_path / "c", **LOSSY)
    assert a.pcap
    assert b.pcap
    assert c.pcap
    assert [p.read_bytes() for p in a.pcap] == [p.read_bytes() for p in b.pcap]
    assert [p.read_bytes() for p in a.pcap] != [p.read_bytes() for p in c.pcap]
    assert ll.run("lan", seed=4, scheme="ll-tcp-aware", **LOSSY).pcap is None


def test_run_seeds_writes_one_directory_per_seed(tmp_path: Path) -> None:
    rs = ll.run_seeds("lan", 2, start=3, pcap=tmp_path, transfer="64KiB")
    for r in rs:
        assert r.pcap is not None
        assert {p.parent for p in r.pcap} == {tmp_path / f"seed{r.seed}"}


def test_cli_run_pcap(tmp_path: Path) -> None:
    out = tmp_path / "caps"
    result = CliRunner().invoke(
        cli, ["run", "--transfer", "64KiB", "--pcap", str(out)], prog_name="lossylink"
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == sorted([*FILES, "index.csv", "index.json"])
    assert "pcap: wrote 4 files" in result.output
    assert "index.json" in result.output
    _check_index(out, [out / name for name in FILES])
    # Several seeds: each seed's directory has its files and its own index of them.
    many = tmp_path / "many"
    result = CliRunner().invoke(
        cli,
        ["run", "--transfer", "64KiB", "--seeds", "2", "--pcap", str(many)],
        prog_name="lossylink",
    )
    assert result.exit_code == 0, result.output
    assert "seed<S>/index.json" in result.output
    assert sorted(p.name for p in many.iterdir()) == ["seed1", "seed2"]
    for seed_dir in many.iterdir():
        _check_index(seed_dir, [seed_dir / name for name in FILES])
    help_text = CliRunner().invoke(cli, ["run", "--help"]).output
    assert "--pcap DIR" in help_text


def test_base_station_trace_lists_local_retransmissions() -> None:
    r = ll.run("lan", seed=2, scheme="ll-tcp-aware", trace=True, **LOSSY)
    assert r.trace is not None
    bs = r.trace["base_station"]
    kinds = list(bs["kind"])
    assert kinds.count("local-retransmit") == r.local_retransmissions > 0
    assert kinds.count("dupack-suppressed") == r.bs_dupacks_suppressed
    assert set(bs["trigger"]) <= {"dupack", "timer", "partial-ack", "other", ""}
    from lossylink.plots import local_retransmission_times

    assert len(local_retransmission_times(r.trace)) == r.local_retransmissions
    assert "base_station" not in ll.run("lan", seed=2, trace=True, **LOSSY).trace


# -- external tools: skipped where they are not installed --------------------------------------


def _tshark_count(path: Path, display_filter: str, *options: str) -> int:
    command = ["tshark", "-n", "-r", str(path), *options, "-Y", display_filter]
    out = subprocess.run(
        [*command, "-T", "fields", "-e", "frame.number"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return len(out.stdout.split())


needs_tshark = pytest.mark.skipif(shutil.which("tshark") is None, reason="tshark not installed")

# tshark flags a repeated sequence range as a retransmission, or as "out-of-order" when it
# follows the previous segment within its reordering threshold (docs/traces.md).
REPEAT = "tcp.analysis.retransmission || tcp.analysis.out_of_order"


@needs_tshark
@pytest.mark.parametrize("scheme", ["e2e-newreno", "e2e-ietf-sack+eifel", "ll-tcp-aware"])
def test_tshark_counts_equal_the_counters(tmp_path: Path, scheme: str) -> None:
    r, f = run_with_pcap(tmp_path, scheme, seed=5)
    m = r.metrics
    d = {p.name: p for p in r.pcap or []}
    for name, stats in f.items():
        path = d[name]
        # The file opens without errors (expert infos of severity "error" would include
        # malformed packets) and tshark sees the same frames.
        assert _tshark_count(path, "_ws.expert.severity == error || _ws.malformed") == 0
        assert _tshark_count(path, "tcp") == stats.data + stats.acks
        assert _tshark_count(path, "tcp.len > 0") == stats.data
    src, wl = d["hop0-ethernet-forward.pcap"], d["hop1-wavelan-forward.pcap"]
    assert _tshark_count(src, "tcp.len > 0") == m["sender_segments"]
    assert _tshark_count(src, REPEAT) == m["sender_retransmitted_segments"]
    assert _tshark_count(wl, REPEAT) == (
        m["sender_retransmitted_segments"] + m["local_retransmissions"]
    )
    bad = ("-o", "tcp.check_checksum:TRUE")
    assert _tshark_count(wl, "tcp.checksum.status == 0", *bad) == m["corrupted_data_frames"]


@needs_tshark
@pytest.mark.skipif(shutil.which("mergecap") is None, reason="mergecap not installed")
def test_tshark_sees_fast_retransmits_in_a_merged_hop(tmp_path: Path) -> None:
    # One direction alone has no ACKs; merged, tshark can tell fast retransmissions.
    r, _ = run_with_pcap(tmp_path / "run", "e2e-newreno", seed=5)
    d = {p.name: p for p in r.pcap or []}
    merged = tmp_path / "hop0.pcap"
    both = [str(d["hop0-ethernet-forward.pcap"]), str(d["hop0-ethernet-reverse.pcap"])]
    subprocess.run(
        ["mergecap", "-w", str(merged), *both],
        check=True,
        timeout=60,
    )
    fast = _tshark_count(merged, "tcp.analysis.fast_retransmission")
    assert 0 < fast <= r.sender_fast_retransmits
    assert _tshark_count(merged, REPEAT) == r.sender_retransmitted_segments


@pytest.mark.skipif(shutil.which("tcptrace") is None, reason="tcptrace not installed")
def test_tcptrace_counts_the_retransmissions(tmp_path: Path) -> None:
    r, _ = run_with_pcap(tmp_path, "e2e-newreno", seed=5)
    d = {p.name: p for p in r.pcap or []}
    out = subprocess.run(
        ["tcptrace", "-l", str(d["hop0-ethernet-forward.pcap"])],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    rows = {
        line.split(":")[0].strip(): int(line.split(":")[1].split()[0])
        for line in out.splitlines()
        if line.strip().startswith(("actual data pkts", "rexmt data pkts"))
    }
    assert rows["actual data pkts"] == r.sender_segments
    assert rows["rexmt data pkts"] == r.sender_retransmitted_segments


def test_an_unwritable_pcap_directory_raises_an_io_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(ll.errors.LossylinkIOError, match="file"):
        ll.run("lan", transfer="64KiB", pcap=blocker)


# -- 802.11 DCF cells: radiotap + 802.11 framing ------------------------------------------------


def _wifi_run(directory: Path) -> ll.RunResult:
    """One download through the docs/examples cell (DCF, retry limit 2) with 10 % frame errors:
    MAC retries, MAC drops after the second attempt, and TCP retransmissions of those."""
    base = ll.Scenario.load(Path(__file__).resolve().parents[2] / "docs/examples/wifi-cell.toml")
    base.update({"flows.0.copies": 1, "run.warmup": "0s", "run.duration": "6s"})
    base.set("cells.0.error", '{ model = "bernoulli", p = 0.1 }')
    return ll.run(base, scheme="e2e-newreno", seed=3, pcap=directory)


def _wifi_frame(buf: bytes) -> tuple[str, bool, bool]:
    """(``data`` or ``ack``, the Retry bit, radiotap's bad-FCS flag) of one radiotap frame."""
    length = int.from_bytes(buf[2:4], "little")
    assert (length, buf[4:8]) == (9, b"\x02\x00\x00\x00")  # version 0, the Flags field only
    fc0, fc1 = buf[length], buf[length + 1]
    kind = {0x08: "data", 0xD4: "ack"}[fc0]
    return kind, bool(fc1 & 0x08), bool(buf[8] & 0x40)


def test_a_dcf_cells_capture_is_802_11_with_retries_and_mac_acks(tmp_path: Path) -> None:
    r = _wifi_run(tmp_path)
    files = {p.name: p for p in r.pcap or []}
    down, up = files["hop2-cell_sta1-forward.pcap"], files["hop2-cell_sta1-reverse.pcap"]
    ap, sta1 = r.members[0], next(m for m in r.members if m["node"] == "sta1")
    for path, member in ((down, ap), (up, sta1)):
        with path.open("rb") as fh:
            reader = dpkt.pcap.Reader(fh)
            assert reader.datalink() == 127  # LINKTYPE_IEEE802_11_RADIOTAP
            frames = [_wifi_frame(buf) for _, buf in reader]
        data = [f for f in frames if f[0] == "data"]
        acks = [f for f in frames if f[0] == "ack"]
        assert len(data) + len(acks) == len(frames)
        assert len(data) == member["attempts"]
        assert sum(retry for _, retry, _ in data) == member["retries"]
        # A MAC ACK for every data frame received intact; those the channel spared are the
        # member's successes.
        assert sum(not bad for _, _, bad in acks) == member["successes"]
    # Beside each, the frames the far end took, once each, as Ethernet: the access point's
    # successes. The wired side writes Ethernet only.
    with files["hop2-cell_sta1-forward-ip.pcap"].open("rb") as fh:
        reader = dpkt.pcap.Reader(fh)
        assert reader.datalink() == dpkt.pcap.DLT_EN10MB
        assert sum(1 for _ in reader) == ap["successes"]
    with files["hop0-internet-forward.pcap"].open("rb") as fh:
        assert dpkt.pcap.Reader(fh).datalink() == dpkt.pcap.DLT_EN10MB
    assert "hop0-internet-forward-ip.pcap" not in files
    assert r.members[0]["retries"] > 50
    assert r.flows[0]["sender_retransmitted_segments"] > 0


@needs_tshark
def test_tshark_tells_mac_retries_from_tcp_retransmissions(tmp_path: Path) -> None:
    r = _wifi_run(tmp_path)
    files = {p.name: p for p in r.pcap or []}
    down, up = files["hop2-cell_sta1-forward.pcap"], files["hop2-cell_sta1-reverse.pcap"]
    ap, sta1 = r.members[0], next(m for m in r.members if m["node"] == "sta1")
    # Wireshark's 802.11 analysis is on with "Call subdissector for retransmitted 802.11
    # frames" off (by default it hands a MAC retry to TCP as one more copy of the segment).
    own = ("-o", "wlan.retransmitted:FALSE")
    for path, member in ((down, ap), (up, sta1)):
        assert _tshark_count(path, "_ws.expert.severity == error || _ws.malformed") == 0
        assert _tshark_count(path, "wlan.fc.retry == 1") == member["retries"]
        assert _tshark_count(path, "wlan.analysis.retransmission", *own) == member["retries"]
        assert _tshark_count(path, "wlan.fc.type_subtype == 0x001d") >= member["successes"]
    # TCP's analysis then sees each segment once per MAC frame: its retransmissions are the
    # sender's (no base-station agent), not the MAC's.
    sent = r.flows[0]["sender_retransmitted_segments"]
    assert _tshark_count(down, REPEAT, *own) == sent
    assert _tshark_count(down, "tcp.len > 0", *own) == ap["attempts"] - ap["retries"]
    # The file of the frames the station took needs no preference.
    assert _tshark_count(files["hop2-cell_sta1-forward-ip.pcap"], REPEAT) == sent


def _dpkt_records(path: Path) -> tuple[int, list[float]]:
    """(link type, record timestamps) of a pcap file, read with dpkt."""
    with path.open("rb") as fh:
        reader = dpkt.pcap.Reader(fh)
        return reader.datalink(), [ts for ts, _ in reader]


def _check_index(directory: Path, written: list[Path]) -> list[dict[str, object]]:
    """The index in ``directory`` lists exactly the pcap files written there (and no other file),
    each with its own frame count, link type and first and last timestamps as dpkt reads them;
    index.csv has the same rows. Returns index.json's files."""
    index = json.loads((directory / "index.json").read_text())
    files = index["files"]
    names = [f["file"] for f in files]
    assert names == [p.name for p in written]
    assert sorted(names) == sorted(p.name for p in directory.glob("*.pcap"))
    for f in files:
        link_type, stamps = _dpkt_records(directory / f["file"])
        assert f["frames"] == len(stamps), f
        assert f["linktype"] == link_type
        if stamps:
            assert f["first_s"] == pytest.approx(min(stamps), abs=1e-9)
            assert f["last_s"] == pytest.approx(max(stamps), abs=1e-9)
        else:
            assert (f["first_s"], f["last_s"]) == (None, None)
    with (directory / "index.csv").open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["file"] for r in rows] == names
    assert [int(r["frames"]) for r in rows] == [f["frames"] for f in files]
    assert [r["holds"] for r in rows] == [f["holds"] for f in files]
    return files


def test_the_index_lists_the_files_with_their_counts(tmp_path: Path) -> None:
    r = ll.run("lan", seed=4, scheme="ll-tcp-aware", pcap=tmp_path, **LOSSY)
    assert r.pcap is not None
    files = _check_index(tmp_path, r.pcap)
    wireless = next(f for f in files if f["file"] == "hop1-wavelan-forward.pcap")
    assert (wireless["from"], wireless["to"], wireless["view"]) == ("bs", "mobile", "link")
    assert wireless["corrupted"] == read(tmp_path / "hop1-wavelan-forward.pcap").bad_tcp_checksums
    assert wireless["corrupted"] > 0
    index = json.loads((tmp_path / "index.json").read_text())
    assert [(n["name"], n["ip"]) for n in index["nodes"]] == [
        ("source", "10.0.0.1"),
        ("bs", "10.0.0.2"),
        ("mobile", "10.0.0.3"),
    ]
    assert index["flows"][0]["sender_port"] == 49152


def test_a_cells_index_counts_mac_retries_and_acks(tmp_path: Path) -> None:
    r = _wifi_run(tmp_path)
    assert r.pcap is not None
    files = {f["file"]: f for f in _check_index(tmp_path, r.pcap)}
    ap = r.members[0]
    down = files["hop2-cell_sta1-forward.pcap"]
    assert (down["link_type"], down["view"]) == ("ieee802_11_radiotap", "802.11")
    assert down["data_frames"] == ap["attempts"]
    assert down["retries"] == ap["retries"]
    assert down["mac_acks"] + down["data_frames"] == down["frames"]
    ip_view = files["hop2-cell_sta1-forward-ip.pcap"]
    assert (ip_view["link_type"], ip_view["view"], ip_view["retries"]) == ("ethernet", "ip", 0)
    assert ip_view["frames"] == ap["successes"]
