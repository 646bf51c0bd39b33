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


@intrinsic
def prefetch(typingctx, arr, idx):
    """Hint the CPU to fetch ``arr[idx]`` into cache (LLVM prefetch; no effect on results)."""
    if not isinstance(arr, types.Array) or not isinstance(idx, types.Integer):
        return None
    sig = types.void(arr, idx)

    def codegen(context, builder, signature, args):
        from llvmlite import ir
        from numba.core import cgutils

        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]],
                                       wraparound=False, boundscheck=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        # read, high temporal locality, data cache
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen
