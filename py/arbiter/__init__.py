"""Arbiter: exact odds and honest dice for five tabletop-RPG dice procedures.

The browser and the CLI use `arbiter.api`; everything else is a pure function over frozen values.
"""

from .errors import RulesError

__all__ = ["RulesError"]
__version__ = "0.1.0"
