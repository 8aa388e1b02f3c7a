"""Many flows from Python and the CLI: per-flow results, the JSON keys, sweep columns."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

import lossylink as ll
from lossylink.cli import cli


def test_a_flows_scenario_has_per_flow_results_and_aggregates() -> None:
    s = ll.Scenario.preset("wlan").set("run.warmup", "1s").set("run.duration", "5s")
    r = ll.run(s, seed=1)
    assert r.flows is not None
    assert len(r.flows) == 4
    assert {f["flow"] for f in r.flows} == {"sta1", "sta2", "sta3", "sta4"}
    assert r.aggregate is not None
    total = sum(f["goodput_mbps"] for f in r.flows)
    assert math.isclose(r.aggregate["aggregate_goodput_mbps"], total)
    # Jain's index from the flows' own goodputs: (sum x)^2 / (n sum x^2), not only its range.
    rates = [f["goodput_mbps"] for f in r.flows]
    jain = sum(rates) ** 2 / (len(rates) * sum(x * x for x in rates))
    assert math.isclose(r.aggregate["jain_index"], jain, rel_tol=1e-9)
    # Four identical stations in one cell: near-equal shares (a wrong index formula, or one
    # station starved, falls outside).
    assert 0.9 <= r.aggregate["jain_index"] <= 1.0
    assert r.links is not None
    assert all(0 <= x["utilisation"] <= 1 for x in r.links)
    d = r.to_dict()
    assert [f["flow"] for f in d["flows"]] == ["sta1", "sta2", "sta3", "sta4"]


def test_chain_runs_keep_their_flat_keys_only() -> None:
    r = ll.run(ll.Scenario.preset("lan").set("transfer", "256KiB"), seed=1)
    assert r.flows is None
    assert r.aggregate is None
    assert "flows" not in r.to_dict()


def test_cli_prints_a_per_flow_table_and_json_carries_the_lists() -> None:
    runner = CliRunner()
    args = ["run", "--preset", "eln5", "--set", "run.warmup=1s", "--set", "run.duration=5s"]
    out = runner.invoke(cli, args)
    assert out.exit_code == 0, out.output
    assert "ftp-m1" in out.output
    assert "Jain" in out.output
    out = runner.invoke(cli, [*args, "--json"])
    assert out.exit_code == 0, out.output
    obj = json.loads(out.output.strip().splitlines()[0])
    assert len(obj["flows"]) == 3
    assert "jain_index" in obj["aggregate"]


def test_sweep_rows_carry_per_flow_and_aggregate_columns() -> None:
    base = ll.Scenario.preset("eln5").set("run.warmup", "1s").set("run.duration", "5s")
    res = ll.sweep(base, grid={"flows.0.scheme": ["e2e", "e2e-newreno"]}, seeds=[1], progress=False)
    frame = res.frame()
    assert "agg.jain_index" in frame.columns
    assert "flow.ftp-m1.goodput_mbps" in frame.columns
    assert len(frame) == 2


def test_bad_flows_are_one_line_errors() -> None:
    s = ll.Scenario.preset("eln5")
    for key, value, field in [
        ("flows.0.to", "nowhere", "flows[0].to"),
        ("flows.0.bytes", "0", "flows[0].bytes"),
        ("routes", '[{at = "bs", to = "m1", via = "m2"}]', "loop"),
        ("routes", '[{at = "m1", to = "m2", via = "m3"}]', "routes[0].via"),
    ]:
        with pytest.raises(ll.errors.LossylinkError) as info:
            s.set(key, value)
        assert field in str(info.value)
        assert "\n" not in str(info.value)


def test_a_saved_multi_flow_run_keeps_its_flows(tmp_path) -> None:
    from lossylink.saved import load_run, save_run

    s = ll.Scenario.preset("eln5").set("run.warmup", "1s").set("run.duration", "3s")
    r = ll.run(s, seed=2, trace=True)
    save_run(r, tmp_path / "run", scenario=s)
    back = load_run(tmp_path / "run")
    assert back.flows is not None
    assert [f["flow"] for f in back.flows] == [f["flow"] for f in r.flows or []]
    assert back.aggregate == r.aggregate
    assert back.trace is not None
    assert "flow" in back.trace["sender"]


def test_a_udp_background_flow_reports_its_goodput() -> None:
    s = ll.Scenario.preset("eln5").set("run.warmup", "1s").set("run.duration", "5s")
    s.set("flows.2.udp", '{ model = "cbr", rate = "400kbps", size = "500B" }')
    r = ll.run(s, seed=1)
    assert r.flows is not None
    probe = r.flows[2]
    assert probe["scheme"] == "udp-cbr"
    assert abs(probe["goodput_mbps"] - 0.4) < 0.05


def test_the_flow_table_fits_80_columns() -> None:
    from lossylink.render import flows_table
    from lossylink.tables import natural_width

    s = ll.Scenario.preset("wlan").set("run.warmup", "1s").set("run.duration", "3s")
    table = flows_table([ll.run(s, seed=1), ll.run(s, seed=2)], width=80)
    assert table is not None
    assert natural_width(table) <= 80


WEB = (
    '[{ name = "u{i}", from = "server", to = "m1", copies = 3, web = {} }, '
    '{ name = "ftp", from = "server", to = "m2" }]'
)


def test_web_sessions_report_page_response_times_in_python_json_and_the_table() -> None:
    s = ll.Scenario.preset("eln5").set("flows", WEB).set("run.duration", "60s")
    r = ll.run(s, seed=2)
    assert r.flows is not None
    assert r.aggregate is not None
    web = [f for f in r.flows if f["flow"].startswith("u")]
    assert [f["flow"] for f in web] == ["u1", "u2", "u3"]
    for f in web:
        assert f["pages"] >= 1
        assert f["response_p95_s"] >= f["response_median_s"] > 0
        assert f["connections"] >= 2 * f["pages"]
    # The bulk flow's row has no web columns; the aggregate has the pooled response times.
    assert "pages" not in r.flows[3]
    assert r.aggregate["pages"] == sum(f["pages"] for f in web)
    out = CliRunner().invoke(
        cli, ["run", "--preset", "eln5", "--set", f"flows={WEB}", "--set", "run.duration=60s"]
    )
    assert out.exit_code == 0, out.output
    assert "resp s" in out.output
    assert "pages" in out.output
    js = CliRunner().invoke(
        cli,
        ["run", "--preset", "eln5", "--set", f"flows={WEB}", "--set", "run.duration=60s", "--json"],
    )
    row = json.loads(js.output.splitlines()[0])
    assert row["flows"][0]["pages"] >= 1
    assert "response_mean_s" in row["aggregate"]


def test_a_sweep_varies_the_number_of_flows_through_a_template(tmp_path) -> None:
    import pandas as pd

    out = tmp_path / "n.parquet"
    flows = '[{ name = "f{i}", from = "s1", to = "d1", copies = 1 }]'
    res = CliRunner().invoke(
        cli,
        [
            "sweep", "--preset", "dumbbell", "--set", f"flows={flows}",
            "--set", "run.warmup=1s", "--set", "run.duration=6s",
            "--grid", "flows.0.copies=1,3", "--seeds", "1", "--executor", "seq",
            "--out", str(out),
        ],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    df = pd.read_parquet(out)
    assert list(df["agg.flows"]) == [1, 3]
    assert "flow.f3.goodput_mbps" in df.columns
    # One flow alone gets the bottleneck; three share it.
    one, three = df["flow.f1.goodput_mbps"]
    assert one > three
