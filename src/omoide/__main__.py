"""``python -m omoide``: the ``omoide`` command."""

from omoide.cli import main

main()
