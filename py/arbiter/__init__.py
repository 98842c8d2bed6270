"""Arbiter: exact odds and honest dice for six tabletop-RPG dice procedures, from five rule texts (the Threat Roll and
the Luck Roll share one).

The browser and the CLI use `arbiter.api`; everything else is a pure function over frozen values.
"""

from .errors import RulesError

__all__ = ["RulesError"]
__version__ = "0.1.0"
