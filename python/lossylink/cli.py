"""The ``lossylink`` command line: the group, its error handling, the light commands (schemes,
preset) and the parameter types the commands share. Every other command lives in its own module
under :mod:`lossylink.commands` and is imported only when it is the one being run (or for
``--help``), so that a command pays for its own definitions and imports alone.

Bad input (unknown names, malformed values or units, unreadable files, bad options) exits with
status 2 and one line on stderr, ``lossylink: error: <message>``; no traceback. Genuine bugs are
not caught and surface with their traceback.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TypeVar

import click

from lossylink import __version__
from lossylink._limits import MAX_SEED, MAX_SEEDS
from lossylink.errors import LossylinkError
from lossylink.listing import PROG, scheme_lines

# The commands defined in their own modules, as "module:attribute". Everything a command needs
# beyond click is imported inside it, so that --help, --version, schemes and preset start fast
# (numpy, pandas, pyarrow and rich load only for runs, sweeps and reports).
LAZY_COMMANDS = {
    "demo": "lossylink.commands.reproduce:demo_cmd",
    "emulate": "lossylink.commands.emulate:emulate_cmd",
    "plot": "lossylink.commands.plot:plot_cmd",
    "reproduce": "lossylink.commands.reproduce:reproduce_cmd",
    "retrace": "lossylink.commands.retrace:retrace_cmd",
    "run": "lossylink.commands.run:run_cmd",
    "sweep": "lossylink.commands.sweep:sweep_cmd",
    "validate": "lossylink.commands.validate:validate_cmd",
}

EXIT_BAD_INPUT = 2
#: Longest quoted user value an error line shows whole (as the Rust core: lossylink::error).
_QUOTE_MAX, _QUOTE_PREFIX = 64, 32


def _shorten_quoted(line: str) -> str:
    """``line`` with every quoted value longer than 64 characters cut to its first 32 and its
    length, so that a huge value cannot make a huge error line (the Rust core does the same to
    its own messages; click's quote the user's values too)."""
    out, i = [], 0
    while i < len(line):
        c = line[i]
        out.append(c)
        i += 1
        if c not in "'\"":
            continue
        end = line.find(c, i)
        end = len(line) if end < 0 else end
        inner = line[i:end]
        if len(inner) > _QUOTE_MAX:
            inner = f"{inner[:_QUOTE_PREFIX]}… ({len(inner)} characters)"
        out.append(inner)
        if end < len(line):
            out.append(c)
        i = end + 1
    return "".join(out)


def _fail(message: str) -> NoReturn:
    """Print the one-line error and exit with status 2."""
    one_line = _shorten_quoted(" ".join(message.split()))
    click.echo(f"{PROG}: error: {one_line}", err=True)
    sys.exit(EXIT_BAD_INPUT)


class _Group(click.Group):
    """A group whose ``main`` turns user errors into one line on stderr and exit status 2."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            rv = super().main(args, prog_name or PROG, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:
            # Bare `lossylink` or `lossylink preset`: the help, as --help prints it.
            click.echo(exc.ctx.get_help() if exc.ctx is not None else exc.format_message())
            sys.exit(0)
        except click.UsageError as exc:
            hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
            _fail(exc.format_message() + hint)
        except click.ClickException as exc:
            _fail(exc.format_message())
        except LossylinkError as exc:
            _fail(str(exc))
        except OSError as exc:
            # A file or directory we could not read or write: name it, say why, no traceback.
            where = exc.filename if exc.filename is not None else "file"
            _fail(f"{where}: {exc.strerror or exc}")
        except click.Abort:
            click.echo(f"{PROG}: aborted", err=True)
            sys.exit(130)
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        spec = LAZY_COMMANDS.get(cmd_name)
        if spec is None:
            return super().get_command(ctx, cmd_name)
        module, _, attr = spec.partition(":")
        command: click.Command = getattr(importlib.import_module(module), attr)
        return command


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(
    __version__, "-V", "--version", prog_name=PROG, message="%(prog)s %(version)s"
)
def cli() -> None:
    """lossylink: a deterministic packet-level simulator of TCP over lossy (wireless) links."""


@cli.command("schemes")
def schemes_cmd() -> None:
    """List the schemes: name, family, description, source."""
    for line in scheme_lines():
        click.echo(line)


@cli.group()
def preset() -> None:
    """The shipped scenario presets."""


@preset.command("list")
def preset_list() -> None:
    """Print the preset names, one per line."""
    from lossylink.scenario import Scenario

    for name in Scenario.preset_names():
        click.echo(name)


@preset.command("show")
@click.argument("name")
def preset_show(name: str) -> None:
    """Print the TOML of preset NAME, ready to copy into a file and edit."""
    from lossylink.scenario import Scenario

    text = Scenario.preset_toml(name)
    click.echo(text, nl=not text.endswith("\n"))


class NonEmptyPath(click.Path):
    """A path option or argument, as a :class:`pathlib.Path`, that must not be empty (``--out ''``
    would mean the current directory)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail("must not be empty: give a file or directory name", param, ctx)
        from pathlib import Path

        return Path(super().convert(value, param, ctx))


class NonEmptyName(click.ParamType):
    """A name that must not be empty (``--preset ''`` is not the default preset)."""

    name = "name"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not str(value).strip():
            self.fail("must not be empty", param, ctx)
        return str(value)


def parse_assignment(
    _ctx: click.Context, _param: click.Parameter, values: tuple[str, ...]
) -> list[tuple[str, str]]:
    """The ``--set KEY=VALUE`` callback: the pairs, stripped, in order."""
    pairs = []
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"expected KEY=VALUE, got {item!r}")
        pairs.append((key.strip(), value.strip()))
    return pairs


# The options several commands share, each built in one place (its help text is the command's).
_F = TypeVar("_F", bound=Callable[..., Any])


def preset_option(help: str) -> Callable[[_F], _F]:
    """``--preset NAME`` (the ``preset_name`` parameter): the base scenario's preset."""
    return click.option("--preset", "preset_name", type=NonEmptyName(), metavar="NAME", help=help)


def config_option(help: str) -> Callable[[_F], _F]:
    """``--config FILE``: the base scenario from a .toml or .json file."""
    return click.option("--config", type=NonEmptyPath(dir_okay=False), help=help)


def set_option(help: str) -> Callable[[_F], _F]:
    """``--set KEY=VALUE``, repeatable (the ``assignments`` parameter, pairs in order)."""
    return click.option(
        "--set",
        "assignments",
        multiple=True,
        metavar="KEY=VALUE",
        callback=parse_assignment,
        help=help,
    )


def seed_option(help: str) -> Callable[[_F], _F]:
    """``--seed S``: a 64-bit seed, 1 by default."""
    return click.option(
        "--seed",
        type=click.IntRange(min=0, max=MAX_SEED),
        default=1,
        show_default=True,
        metavar="S",
        help=help,
    )


def seeds_option(default: int, help: str) -> Callable[[_F], _F]:
    """``--seeds N``: how many seeds from ``--seed`` on."""
    return click.option(
        "--seeds",
        type=click.IntRange(min=1, max=MAX_SEEDS),
        default=default,
        show_default=True,
        metavar="N",
        help=help,
    )


def main() -> None:
    """Entry point of the ``lossylink`` console script."""
    cli.main(prog_name=PROG)
