# SPDX-License-Identifier: MIT
"""python -m skn: see skn.cli."""
import sys

from .cli import main

sys.exit(main())
