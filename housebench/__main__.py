"""``python -m housebench``: the command line."""

from housebench.cli import main

main()
