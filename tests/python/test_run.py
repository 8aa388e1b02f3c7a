"""lossylink.run / run_seeds / RunResult / results_frame against the compiled core."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import lossylink as ll
from lossylink import RunResult, Scenario
from support import SMALL, without_wall

# The metrics every run reports, in the facade's order (more may follow or sit between).
DOCUMENTED_KEYS = [
    "scheme",
    "preset",
    "seed",
    "error_every_bytes",
    "buffer_bytes",
    "transfer_bytes",
    "throughput_mbps",
    "wired_goodput_pct",
    "wireless_goodput_pct",
    "completion_s",
    "sender_timeouts",
    "sender_fast_retransmits",
    "sender_retransmitted_bytes",
    "local_retransmissions",
    "bs_queue_drops",
    "corrupted_data_frames",
    "corrupted_ack_frames",
    "events",
    "wall_s",
]


def test_metrics_keys_in_documented_order(small: Scenario) -> None:
    keys = list(ll.run(small, seed=1).metrics)
    positions = [keys.index(k) for k in DOCUMENTED_KEYS]
    assert positions == sorted(positions)


def test_metric_types(small: Scenario) -> None:
    r = ll.run(small, seed=2)
    assert isinstance(r.scheme, str)
    assert r.preset == "lan"
    assert r.seed == 2
    assert isinstance(r.sender_timeouts, int)
    assert isinstance(r.throughput_mbps, float)
    assert r.throughput_mbps > 0
    assert r.transfer_bytes == 256 * 1024
    assert r.trace is None


def test_every_metric_is_an_attribute(small: Scenario) -> None:
    r = ll.run(small, seed=1)
    for key, value in r.metrics.items():
        assert getattr(r, key) == value or (isinstance(value, float) and math.isnan(value))
    assert set(r.metrics) <= set(dir(r))
    with pytest.raises(AttributeError, match="no_such_metric"):
        _ = r.no_such_metric


def test_repr_is_readable(small: Scenario) -> None:
    text = repr(ll.run(small, seed=1, trace=True))
    assert text.startswith("RunResult(scheme=")
    assert "throughput_mbps=" in text
    assert "trace=<" in text


def test_same_seed_same_result(small: Scenario) -> None:
    a = ll.run(small, seed=7)
    b = ll.run(small, seed=7)
    assert without_wall(a.metrics) == without_wall(b.metrics)


def test_seeds_change_the_losses() -> None:
    results = ll.run_seeds("lan", seeds=5, **SMALL)
    outcomes = {(r.throughput_mbps, r.corrupted_data_frames) for r in results}
    assert len(outcomes) > 1


def test_run_seeds_equals_single_runs(small: Scenario) -> None:
    batch = ll.run_seeds(small, seeds=3, start=4)
    assert [r.seed for r in batch] == [4, 5, 6]
    for r in batch:
        single = ll.run(small, seed=r.seed)
        assert without_wall(r.metrics) == without_wall(single.metrics)


def test_run_seeds_explicit_list(small: Scenario) -> None:
    assert [r.seed for r in ll.run_seeds(small, seeds=[9, 3])] == [9, 3]
    assert [r.seed for r in ll.run_seeds(small, seeds=np.array([2, 1]))] == [2, 1]


def test_run_accepts_preset_names_paths_and_overrides(tmp_path: Path, small: Scenario) -> None:
    expected = without_wall(ll.run(small, seed=1).metrics)
    assert without_wall(ll.run("lan", seed=1, **SMALL).metrics) == expected
    path = small.save(tmp_path / "small.toml")
    assert without_wall(ll.run(str(path), seed=1).metrics) == expected
    assert without_wall(ll.run(path, seed=1).metrics) == expected


def test_run_does_not_modify_the_scenario(small: Scenario) -> None:
    before = small.to_toml()
    ll.run(small, seed=1, buffer="8KiB")
    assert small.to_toml() == before


def test_default_scenario_is_lan() -> None:
    assert ll.run(seed=1, transfer="64KiB").preset == "lan"


def test_trace_tables_are_numpy_columns_of_equal_length(small: Scenario) -> None:
    r = ll.run(small, seed=1, trace=True)
    assert r.trace is not None
    assert "sender" in r.trace
    for table, columns in r.trace.items():
        assert columns, table
        lengths = {len(values) for values in columns.values()}
        assert len(lengths) == 1, (table, lengths)
        for name, values in columns.items():
            if isinstance(values, np.ndarray):
                assert values.ndim == 1
                assert values.dtype in (np.float64, np.int64), (table, name, values.dtype)
            else:
                assert all(isinstance(v, str) for v in values), (table, name)
    sender = r.trace["sender"]
    assert len(sender["time_s"]) > 0
    assert sender["time_s"].dtype == np.float64
    assert np.all(np.diff(sender["time_s"]) >= 0)


def test_tracing_does_not_change_the_metrics(small: Scenario) -> None:
    traced = ll.run(small, seed=3, trace=True)
    plain = ll.run(small, seed=3)
    assert without_wall(traced.metrics) == without_wall(plain.metrics)


def test_to_dict_is_json(small: Scenario) -> None:
    r = ll.run(small, seed=1, trace=True)
    data = r.to_dict()
    assert list(data) == list(r.metrics)
    json.dumps(data, allow_nan=False)
    with_trace = r.to_dict(trace=True)
    assert set(with_trace["trace"]) == set(r.trace or {})
    json.dumps(with_trace, allow_nan=False)


def test_results_frame(small: Scenario) -> None:
    results = ll.run_seeds(small, seeds=3)
    frame = ll.results_frame(results)
    assert list(frame.columns) == list(results[0].metrics)
    assert list(frame["seed"]) == [1, 2, 3]
    assert frame["throughput_mbps"].tolist() == [r.throughput_mbps for r in results]


def test_trace_frame_and_csv(tmp_path: Path, small: Scenario) -> None:
    r = ll.run(small, seed=5, trace=True)
    assert r.trace is not None
    frame = r.trace_frame("sender")
    assert list(frame.columns) == list(r.trace["sender"])
    paths = r.write_trace_csv(tmp_path / "out")
    assert sorted(p.name for p in paths) == sorted(f"{t}_seed5.csv" for t in r.trace)
    header = (tmp_path / "out" / "sender_seed5.csv").read_text().splitlines()[0]
    assert header.split(",") == list(r.trace["sender"])
    with pytest.raises(ValueError, match="not traced"):
        ll.run(small, seed=5).trace_frame("sender")


def test_results_pickle_and_compare(small: Scenario) -> None:
    import pickle

    r = ll.run(small, seed=1, trace=True)
    assert pickle.loads(pickle.dumps(r)) == r
    assert RunResult(r.metrics) != r


def test_schemes_registry() -> None:
    infos = ll.schemes()
    assert infos
    names = [s["name"] for s in infos]
    assert len(names) == len(set(names))
    for info in infos:
        assert set(info) == {"name", "family", "description", "source"}
        assert all(isinstance(v, str) and v for v in info.values())
    assert Scenario.preset("lan").scheme in names


def test_every_scheme_runs() -> None:
    """Every scheme on the lan preset, but the LL-ELSN family, whose notices are an 802.11
    MAC's retries: on the llelsn preset's DCF cell (on lan they are refused in one line)."""
    for info in ll.schemes():
        name = info["name"]
        if name.startswith("ll-elsn"):
            with pytest.raises(ll.errors.InvalidValueError, match=r"needs an 802\.11 DCF"):
                ll.run("lan", seed=1, scheme=name, **SMALL)
            r = ll.run("llelsn", seed=1, scheme=name, **{"run.duration": "2s"})
        else:
            r = ll.run("lan", seed=1, scheme=name, **SMALL)
        assert r.scheme == name
        assert r.throughput_mbps > 0


def test_version() -> None:
    assert isinstance(ll.__version__, str)
    assert ll.__version__.count(".") >= 2
