"""The one error the rules raise for bad input."""


class RulesError(ValueError):
    """A request, roll or action the rules do not allow; the message names the field and the allowed range."""
