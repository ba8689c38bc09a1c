"""``python -m stratagem`` is the ``stratagem`` command."""

from stratagem.cli import main

main()
