"""Each rule option declared once: what the parser, the help, the headers, the folder names, the
explorer's links and :meth:`Variant.describe` are derived from.

:class:`~morris.core.variants.Rules` declares its fields with :func:`rule`, which stores a
:class:`RuleField` in the dataclass field's metadata; :data:`RULE_FIELDS` (variants.py) reads them
back in declaration order. A field says:

============ ==================================================================================
``kind``     ``bool``, ``int`` or ``str``; ``optional``: ``None`` is a value too (no limit)
``lo, hi``   the range of an ``int``; ``choices``: the values of a ``str``
``flag``     whether ``morris`` has an option for it (``--NAME`` with ``_`` as ``-``; a bool gets
             ``--NAME/--no-NAME``); the explorer's query parameter is the field's name
``header``   ``"always"``: every database header states it; ``"set"``: a header states it only
             where it differs from the default (the files written before the field existed stay
             as they were); ``"never"``: files do not depend on it (the piece count)
``token``    the part of the ruleset name (and folder) where the value differs from the default,
             ``{v}`` standing for the value (``"dm{v}"``: ``dm2``); ``None``: no part
``help``     one line for ``--help``
============ ==================================================================================

Adding a rule option is one ``rule(...)`` line in ``Rules``, its check in ``Rules.__post_init__``,
and the kernels that read it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .errors import UnknownVariantError

HEADER_POLICIES = ("always", "set", "never")


@dataclass(frozen=True)
class RuleField:
    """One rule option (see the module's table)."""

    name: str
    kind: type
    default: object
    help: str
    flag: bool = True
    optional: bool = False
    lo: int | None = None
    hi: int | None = None
    choices: tuple = ()
    header: str = "always"
    token: str | None = None
    metavar: str | None = None

    @property
    def option(self) -> str:
        """The ``morris`` option: ``--double-mill-removes``, ``--flying/--no-flying``."""
        dashed = self.name.replace("_", "-")
        return f"--{dashed}/--no-{dashed}" if self.kind is bool else f"--{dashed}"

    def differs(self, value) -> bool:
        return value != self.default

    def token_of(self, value) -> str | None:
        """The ruleset name's part for ``value`` (None where it adds none)."""
        if self.token is None or not self.differs(value):
            return None
        return self.token.format(v=value)

    def check(self, value, where: str = ""):
        """``value`` itself where it has this field's type and range, else UnknownVariantError
        naming the field (``where``: what holds it, for the message)."""
        label = f"{where}{self.name}"
        if value is None and self.optional:
            return None
        if self.kind is bool:
            ok = type(value) is bool
        elif self.kind is int:
            ok = (type(value) is int and (self.lo is None or value >= self.lo)
                  and (self.hi is None or value <= self.hi))
        else:
            ok = isinstance(value, str) and (not self.choices or value in self.choices)
        if not ok:
            raise UnknownVariantError(f"{label} is {value!r}; {self.expected()}")
        return value

    def expected(self) -> str:
        """What the field takes, in words (for messages and help)."""
        if self.kind is bool:
            out = "true or false"
        elif self.kind is int:
            hi = "" if self.hi is None else f" to {self.hi}"
            out = f"a whole number {self.lo}{hi}"
        else:
            out = " or ".join(map(repr, self.choices)) if self.choices else "a string"
        return out + (", or none" if self.optional else "")

    def parse_text(self, text: str):
        """The value of a query parameter or an engine option (``None`` for empty; ``0`` for
        no limit where ``None`` is a value)."""
        from .inputs import parse_int

        if text is None or text == "":
            return None
        if self.kind is bool:
            low = text.lower()
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off"):
                return False
            raise UnknownVariantError(f"{self.name} must be 0 or 1, got {text!r}")
        if self.kind is int:
            if self.optional:
                n = parse_int(text, self.name, 0, self.hi)
                return n or None
            return parse_int(text, self.name, self.lo, self.hi)
        return self.check(text)


def rule(default, kind: type, help: str, **options):
    """A ``Rules`` field declared with its :class:`RuleField` (the name is the field's own)."""
    return dataclasses.field(default=default, metadata={"rule": (kind, help, options)})


def fields_of(cls) -> tuple[RuleField, ...]:
    """The :class:`RuleField` of every field of the dataclass ``cls``, in declaration order."""
    out = []
    for f in dataclasses.fields(cls):
        kind, help, options = f.metadata["rule"]
        rf = RuleField(f.name, kind, f.default, help, **options)
        if rf.header not in HEADER_POLICIES:
            raise ValueError(f"rule field {f.name}: header must be one of {HEADER_POLICIES}")
        out.append(rf)
    return tuple(out)
