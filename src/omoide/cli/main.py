"""The ``omoide`` command: a thin shell over the library.

Every option is also settable as an ``OMOIDE_`` environment variable; options given on the
command line win. ``--json`` prints what the HTTP API answers for the same request.

This module and the command modules it registers import only typer and the standard
library: ``omoide --help`` and a usage error answer at once. Each command imports the
settings, the store, the embedder, rich or the web stack inside its function, when it runs.

Typer turns every registered function into a click command (reading its signature and
evaluating its annotations) on each call, ~30 of them; :func:`main` hands it only the
module of the command named on the command line, which answers exactly as :data:`app`,
the whole group, does (``--help``, an unknown command or none at all go to :data:`app`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

import typer
from typer.main import get_command_name

from omoide.cli import maintenance, memory, server, service, stream

Register = Callable[[typer.Typer], None]
MODULES: tuple[Register, ...] = (
    memory.register,
    maintenance.register,
    service.register,
    server.register,
    stream.register,
)


def command_group(modules: Sequence[Register]) -> typer.Typer:
    """The ``omoide`` group with the commands of ``modules``."""
    group = typer.Typer(
        no_args_is_help=True,
        add_completion=False,
        rich_markup_mode=None,  # plain help: rich's markdown and traceback modules: ~0.5 s
        pretty_exceptions_enable=False,
        help="omoide: memory for AI VTubers",
    )
    for register in modules:
        register(group)
    return group


app = command_group(MODULES)


def command_names(group: typer.Typer) -> set[str]:
    """The names typer gives the commands and command groups registered on ``group``."""
    commands = {
        info.name or get_command_name(getattr(info.callback, "__name__", ""))
        for info in group.registered_commands
    }
    return commands | {info.name for info in group.registered_groups if info.name}


def group_for(arguments: Sequence[str]) -> typer.Typer:
    """The group that runs ``arguments``: the named command's module alone, or :data:`app`."""
    if not arguments:
        return app
    for register in MODULES:
        group = command_group([register])
        names = command_names(group)
        if arguments[0] in names and len(names) > 1:  # typer runs a lone command as the group
            return group
    return app


def main() -> None:
    group_for(sys.argv[1:])()
