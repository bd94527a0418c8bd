"""Launch Autograd Playground: `make run` (or `python main.py [FILE ...]` inside .venv)."""

from playground.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
