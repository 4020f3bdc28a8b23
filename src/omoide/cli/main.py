"""The ``omoide`` command: a thin shell over the library.

Every option is also settable as an ``OMOIDE_`` environment variable; options given on the
command line win. ``--json`` prints what the HTTP API answers for the same request.

This module and the command modules it registers import only typer and the standard
library: ``omoide --help`` and a usage error answer at once. Each command imports the
settings, the store, the embedder, rich or the web stack inside its function, when it runs.
"""

from __future__ import annotations

import typer

from omoide.cli import maintenance, memory, server, service, stream

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,  # plain help: rich's markdown and traceback modules take ~0.5 s to load
    pretty_exceptions_enable=False,
    help="omoide: memory for AI VTubers",
)

memory.register(app)
maintenance.register(app)
service.register(app)
server.register(app)
stream.register(app)


def main() -> None:
    app()
