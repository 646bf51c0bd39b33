"""Bit tricks for the kernels: population count and trailing zeros as single instructions."""

from numba import types
from numba.core.extending import intrinsic
from numba.cpython.unsafe.numbers import trailing_zeros as ctz  # noqa: F401  (re-exported)


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an integer (LLVM ctpop)."""
    if not isinstance(x, types.Integer):
        return None
    sig = x(x)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen
