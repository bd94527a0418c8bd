"""Launch Autograd Playground: `make run` (or `python main.py` inside .venv)."""

from playground.app import main

if __name__ == "__main__":
    raise SystemExit(main())
