"""``python -m playground``: the same as the ``autograd-playground`` command."""

from .cli import main

raise SystemExit(main())
