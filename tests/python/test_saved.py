"""Saved runs record the files a run wrote elsewhere (pcap, trace CSV) and give them back."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest
from click.testing import CliRunner

import lossylink as ll
from lossylink.cli import cli
from lossylink.saved import OUTPUTS_FILE, load_run, save_run

SHORT = {"transfer": "64KiB"}


def _resolved(paths: list[Path] | None) -> list[Path]:
    assert paths is not None
    return [p.resolve() for p in paths]


def test_save_records_pcap_and_trace_csv_paths(tmp_path: Path) -> None:
    r = ll.run("lan", seed=1, trace=True, pcap=tmp_path / "caps", **SHORT)
    csvs = r.write_trace_csv(tmp_path / "csv")
    assert r.trace_csv == csvs
    save_run(r, tmp_path / "runs" / "e2e")
    record = json.loads((tmp_path / "runs" / "e2e" / OUTPUTS_FILE).read_text())
    assert list(record) == ["pcap", "trace_csv"]
    assert record["pcap"][0] == "../../caps/hop0-ethernet-forward.pcap"
    assert record["trace_csv"][0] == "../../csv/sender_seed1.csv"
    back = load_run(tmp_path / "runs" / "e2e")
    assert _resolved(back.pcap) == _resolved(r.pcap)
    assert _resolved(back.trace_csv) == _resolved(csvs)


def test_a_saved_run_moved_with_its_files_still_finds_them(tmp_path: Path) -> None:
    here = tmp_path / "here"
    r = ll.run("lan", seed=1, trace=True, pcap=here / "caps", **SHORT)
    r.write_trace_csv(here / "csv")
    save_run(r, here / "run")
    there = here.rename(tmp_path / "there")
    back = load_run(there / "run")
    assert back.pcap is not None
    assert back.trace_csv is not None
    assert [p.name for p in back.pcap] == [p.name for p in r.pcap or []]
    assert all(p.is_file() and there in p.resolve().parents for p in back.pcap)
    assert all(p.is_file() for p in back.trace_csv)


def test_paths_come_back_relative_to_the_directory_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    r = ll.run("lan", seed=1, pcap="caps", **SHORT)
    save_run(r, Path("runs/e2e"))
    assert load_run("runs/e2e").pcap == r.pcap
    assert load_run(tmp_path / "runs" / "e2e").pcap == [tmp_path / p for p in r.pcap or []]


def test_a_run_without_outputs_records_none_and_clears_an_old_record(tmp_path: Path) -> None:
    save_run(ll.run("lan", seed=1, pcap=tmp_path / "caps", **SHORT), tmp_path / "run")
    assert (tmp_path / "run" / OUTPUTS_FILE).exists()
    save_run(ll.run("lan", seed=1, **SHORT), tmp_path / "run")
    assert not (tmp_path / "run" / OUTPUTS_FILE).exists()
    back = load_run(tmp_path / "run")
    assert back.pcap is None
    assert back.trace_csv is None


def test_cli_run_save_records_pcap_and_trace_csv(tmp_path: Path) -> None:
    args = ["run", "--transfer", "64KiB", "--seeds", "2", "--save", str(tmp_path / "runs")]
    args += ["--pcap", str(tmp_path / "caps"), "--trace-csv", str(tmp_path / "csv")]
    result = CliRunner().invoke(cli, args, prog_name="lossylink")
    assert result.exit_code == 0, result.output
    for seed in (1, 2):
        back = load_run(tmp_path / "runs" / f"seed{seed}")
        # The pcap files (their index.json and index.csv beside them are not among them).
        caps = sorted((tmp_path / "caps" / f"seed{seed}").glob("*.pcap"))
        assert _resolved(back.pcap) == [p.resolve() for p in caps]
        assert back.trace_csv is not None
        assert {p.name for p in back.trace_csv} == {
            f"sender_seed{seed}.csv",
            f"events_seed{seed}.csv",
            f"rtt_seed{seed}.csv",
            f"receiver_seed{seed}.csv",
        }
        assert all(p.is_file() for p in back.trace_csv)


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ("[1, 2]", "expected a JSON object with keys pcap, trace_csv"),
        ('{"pcaps": []}', "unknown field 'pcaps' \\(allowed: pcap, trace_csv\\)"),
        ('{"pcap": "a.pcap"}', "pcap: expected a list of paths, not str"),
        ('{"trace_csv": ["a.csv", 3]}', "trace_csv\\[1\\]: expected a non-empty path string"),
        ('{"pcap": [""]}', "pcap\\[0\\]: expected a non-empty path string"),
        ("{not json", "cannot read .*outputs.json"),
    ],
)
def test_a_bad_outputs_record_names_the_field(tmp_path: Path, record: str, message: str) -> None:
    save_run(ll.run("lan", seed=1, **SHORT), tmp_path)
    (tmp_path / OUTPUTS_FILE).write_text(record)
    with pytest.raises(ll.errors.LossylinkIOError, match=message):
        load_run(tmp_path)


def test_pickle_keeps_the_output_paths(tmp_path: Path) -> None:
    r = ll.run("lan", seed=1, trace=True, pcap=tmp_path / "caps", **SHORT)
    r.write_trace_csv(tmp_path / "csv")
    back = pickle.loads(pickle.dumps(r))
    assert back.pcap == r.pcap
    assert back.trace_csv == r.trace_csv
    old = ll.RunResult.__new__(ll.RunResult)
    old.__setstate__((r.metrics, None, r.pcap))
    assert old.trace_csv is None
