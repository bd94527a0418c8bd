"""Launch Autograd Playground: `make run` (or `python main.py [FILE ...]` inside .venv)."""

from playground.shell.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
