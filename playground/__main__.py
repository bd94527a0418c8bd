"""``python -m playground``: the same as the ``autograd-playground`` command."""

from .shell.cli import main

raise SystemExit(main())
