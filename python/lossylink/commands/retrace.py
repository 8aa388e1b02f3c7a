"""``lossylink retrace``: ReTracer on a block-erasure trace (Ludwig 2000 §4.3): the RLP
throughput per frame size and pure end-to-end recovery per MTU."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from lossylink.cli import NonEmptyPath

if TYPE_CHECKING:
    from pathlib import Path


@click.command("retrace", short_help="ReTracer: RLP frame sizes and MTUs on an erasure trace.")
@click.argument("trace", required=False, type=NonEmptyPath(exists=True, dir_okay=False))
@click.option(
    "--frame",
    "frames",
    default="30..1410",
    show_default=True,
    metavar="RANGE",
    help="RLP frame sizes in bytes: LO..HI (steps of 30), LO..HI/STEP or a list 30,210.",
)
@click.option(
    "--mtu",
    "mtus",
    default="296,576,1500",
    show_default=True,
    metavar="RANGE",
    help="MTUs for pure end-to-end recovery: a list, or LO..HI/STEP.",
)
@click.option(
    "--packing",
    type=click.Choice(["continuous", "aligned"]),
    default="continuous",
    show_default=True,
    help="End-to-end packets back to back in the byte stream, or each on a block boundary.",
)
@click.option(
    "--profile",
    metavar="NAME",
    help="Without TRACE: a synthetic trace of this profile: the chains good, poor-b, poor-c "
    "(trace_A-, B- or C-like), fading-c (the fading channel), or a chain clustered into fades "
    "of mean length T_c, poor-b|poor-c@T_C[:worst|:dense] (e.g. poor-c@2s, poor-c@500ms:dense).",
)
@click.option("--minutes", type=click.IntRange(1, 24 * 60), default=60, show_default=True,
              help="With --profile: the trace's length.")  # fmt: skip
@click.option("--seed", type=click.IntRange(0), default=1, show_default=True,
              help="With --profile: the seed.")  # fmt: skip
@click.option("--even", is_flag=True, help="With --profile: its _even version.")
@click.option("--json", "as_json", is_flag=True, help="Print the tables as JSON.")
def retrace_cmd(
    trace: Path | None,
    frames: str,
    mtus: str,
    packing: str,
    profile: str | None,
    minutes: int,
    seed: int,
    even: bool,
    as_json: bool,
) -> None:
    """Retrace TRACE (the block_trace format: one 0 or 1 per 20 ms radio block) or, with
    --profile, a synthetic trace: the best-case RLP throughput of each frame size (Fig 4-13),
    and the throughput, retransmission share and back-to-back losses of pure end-to-end
    recovery at each MTU beside TCP over the best RLP frame without and with VJ compression
    (Tab 4-14, Figs 4-15, 4-16).

    \b
    lossylink retrace trace_c.txt --frame 30..1500 --mtu 296,576,1500
    lossylink retrace --profile poor-c --minutes 120 --seed 3 --mtu 296..1500/8
    lossylink retrace --profile poor-c@500ms:dense --minutes 120 --mtu 296,576,1500
    """
    from lossylink.errors import InvalidValueError
    from lossylink.retracer import erasure_trace, retrace

    if (trace is None) == (profile is None):
        raise InvalidValueError("retrace: give a TRACE file or --profile, not both or neither")
    text = erasure_trace(profile, minutes, seed, even=even) if profile else str(trace)
    r = retrace(text if profile else trace, frames, mtus, packing=packing)  # type: ignore[arg-type]
    if as_json:
        click.echo(
            json.dumps(
                {
                    "blocks": r.blocks,
                    "erasures": r.erasures,
                    "bler": r.bler,
                    "best_frame": r.best_frame if not r.rlp.empty else None,
                    "best_mtu": r.best_mtu if not r.e2e.empty else None,
                    "rlp": r.rlp.to_dict(orient="records"),
                    "e2e": r.e2e.to_dict(orient="records"),
                }
            )
        )
        return
    click.echo(
        f"{r.blocks} blocks ({r.blocks / 50:.0f} s), {r.erasures} erased (BLER {r.bler:.4f})"
    )
    if not r.rlp.empty:
        click.echo(f"\nRLP (best frame {r.best_frame} B)")
        click.echo("frame_B  throughput_B/s  retransmitted")
        for row in r.rlp.itertuples():
            click.echo(
                f"{row.frame_bytes:7d}  {row.throughput_bps:14.1f}  "
                f"{100 * row.retransmission_fraction:12.1f} %"
            )
    if not r.e2e.empty:
        click.echo(f"\nPure end-to-end (best MTU {r.best_mtu} B); TCP over the best RLP frame")
        click.echo("    MTU  e2e_B/s  retransmitted  runs>=2  rlp_B/s  rlp+vj_B/s")
        for row in r.e2e.itertuples():
            click.echo(
                f"{row.mtu:7d}  {row.throughput_bps:7.1f}  "
                f"{100 * row.retransmission_fraction:11.1f} %  "
                f"{100 * row.multi_loss_share:5.1f} %  {row.rlp_bps:7.1f}  {row.rlp_vj_bps:10.1f}"
            )
