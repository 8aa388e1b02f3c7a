"""``lossylink emulate``: real Linux TCP through a scenario's links (docs/emulation.md)."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import click

from lossylink.cli import PROG, NonEmptyPath, parse_assignment, seed_option, set_option
from lossylink.emulation import timing_warning

if TYPE_CHECKING:
    from pathlib import Path


@click.command("emulate", short_help="Real Linux TCP through a scenario's links (root).")
@click.argument("scenario_name", metavar="SCENARIO")
@click.option(
    "--cc",
    type=click.Choice(["reno", "cubic", "bbr"]),
    default="reno",
    show_default=True,
    help="Kernel congestion control (TCP_CONGESTION; the namespaces' default for --server and "
    "--client).",
)
@click.option("--bytes", "nbytes", metavar="SIZE", help="Bytes the built-in transfer sends "
              "[the scenario's transfer].")  # fmt: skip
@click.option(
    "--buffer",
    metavar="SIZE",
    help="Socket buffers of the built-in transfer; 0: the scenario's tcp.buffer "
    "[the kernel's autotuning].",
)
@click.option("--server", metavar="CMD", help="Shell command to run in the server's namespace.")
@click.option("--client", metavar="CMD", help="Shell command to run in the client's namespace "
              "(the run ends when it exits).")  # fmt: skip
@set_option("Set any scenario field by alias or dotted path (repeatable), e.g. error_every=0.")
@seed_option("Seed of the links' error models and media.")
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0.001),
    default=600.0,
    show_default=True,
    metavar="SECONDS",
    help="Stop the run after this long.",
)
@click.option(
    "--pcap",
    type=NonEmptyPath(file_okay=False),
    metavar="DIR",
    help="Write client-to-server.pcap and server-to-client.pcap (real datagrams as released, "
    "model times) and hop<i>-<name>-<forward|reverse>.pcap per link direction into DIR.",
)
@click.option(
    "--sysctl",
    "sysctls",
    multiple=True,
    metavar="KEY=VALUE",
    callback=parse_assignment,
    help="A net.* kernel setting for every namespace (repeatable), e.g. net.ipv4.tcp_sack=0.",
)
@click.option(
    "--compare",
    is_flag=True,
    help="Also simulate the scenario (same seed, the emulated byte count) and print both "
    "side by side under the same metric names.",
)
@click.option(
    "--realtime/--no-realtime",
    default=True,
    show_default=True,
    help="Run the relay under real-time scheduling (SCHED_FIFO) so that busy cores do not delay "
    "its releases; relay_realtime in the results says whether the kernel allowed it.",
)
@click.option("--json", "as_json", is_flag=True, help="The results as one JSON object.")
def emulate_cmd(
    scenario_name: str,
    cc: str,
    nbytes: str | None,
    buffer: str | None,
    server: str | None,
    client: str | None,
    assignments: list[tuple[str, str]],
    seed: int,
    time_limit: float,
    pcap: Path | None,
    sysctls: list[tuple[str, str]],
    compare: bool,
    realtime: bool,
    as_json: bool,
) -> None:
    """Emulate SCENARIO (a preset name or a .toml/.json file) with real Linux TCP.

    Two network namespaces (ll-<pid>-c for the first flow's sender, ll-<pid>-s for its
    receiver, addresses 10.77.0.1 and 10.77.0.2, in $LL_CLIENT_ADDR and $LL_SERVER_ADDR) are
    joined through TUN devices to the scenario's links, which every real datagram crosses in
    real time. The scheme's snoop or LL agent runs on the real segments; a split scheme's
    base station is a third namespace (ll-<pid>-b, 10.77.0.3, $LL_PROXY_ADDR) whose proxy
    terminates the connection. Without --server and --client, a built-in transfer sends the
    scenario's bytes. Needs root (CAP_NET_ADMIN, CAP_SYS_ADMIN); everything it creates is
    removed on exit, and leftovers of a killed emulator on the next start. See
    docs/emulation.md.
    """
    from pathlib import Path

    from lossylink import _core
    from lossylink.scenario import Scenario

    path = Path(scenario_name)
    # One validation after the --set overrides: they may repair a scenario file.
    scenario = (
        Scenario.load(path, assignments)
        if path.suffix in (".toml", ".json")
        else Scenario.preset(scenario_name).update(assignments)
    )
    if compare and (server or client):
        raise click.BadParameter("needs the built-in transfer (no --server/--client)",
                                 param_hint="--compare")  # fmt: skip
    result = _core.emulate(
        scenario.core,
        seed=seed,
        cc=cc,
        bytes=nbytes,
        buffer=buffer,
        server=server,
        client=client,
        time_limit=time_limit,
        pcap=pcap,
        sysctls=list(sysctls),
        realtime=realtime,
    )
    simulated = None
    if compare and not result.get("interrupted"):
        from lossylink.runner import run

        # The same scenario and seed, sending what the emulated transfer sent.
        scenario.set("transfer", str(result["transfer_bytes"]))
        simulated = run(scenario, seed=seed).to_dict()
    if as_json:
        both = {"emulated": result, "simulated": simulated} if simulated else result
        click.echo(json.dumps(both))
    else:
        _print_emulated(result, simulated)
    late = timing_warning(result)
    if late is not None:
        click.echo(f"{PROG}: warning: {late}", err=True)
    if result.get("interrupted"):
        sys.exit(130)


def _print_emulated(result: dict[str, Any], simulated: dict[str, Any] | None) -> None:
    """One metric a line; with ``simulated``, its value of the same metric beside (``-``:
    the simulator has no such metric)."""

    def shown(value: Any) -> str:
        return f"{value:.4f}" if isinstance(value, float) else str(value)

    # The TCP_INFO samples are a series (in --json, and for `validate linux`), not a line.
    rows = [
        (k, v) for k, v in result.items() if not (k == "pcap" and not v) and k != "cwnd_samples"
    ]
    width = max(len(k) for k, _ in rows)
    if simulated is None:
        for key, value in rows:
            click.echo(f"{key:<{width}}  {shown(value)}")
        return
    col = max(len("emulated"), *(len(shown(v)) for k, v in rows if k != "pcap"))
    click.echo(f"{'metric':<{width}}  {'emulated':>{col}}  simulated")
    for key, value in rows:
        sim = shown(simulated[key]) if key in simulated else "-"
        if key == "pcap":
            click.echo(f"{key:<{width}}  {shown(value)}")
        else:
            click.echo(f"{key:<{width}}  {shown(value):>{col}}  {sim}")
