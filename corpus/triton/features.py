"""Triton features the other kernels leave out: tl.where on masks, a two-value
associative scan, tl.sort, int64 indexing with a large stride, atomic add and
compare-and-swap, a small tl.dot (mma.sync and ldmatrix on sm_80), bf16 and fp8
conversions."""
import triton
import triton.language as tl


@triton.jit
def where_masked(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.load(y_ptr + offs, mask=mask, other=1.0)
    z = tl.where((x > y) & (offs % 3 != 0), x - y, tl.where(x < 0, -x, y * 2.0))
    tl.store(out_ptr + offs, z, mask=mask)


@triton.jit
def _sum_and_max(a, am, b, bm):
    return a + b, tl.maximum(am, bm)


@triton.jit
def scan_pair(x_ptr, sum_ptr, max_ptr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = row * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    s, m = tl.associative_scan((x, x), 0, _sum_and_max)
    tl.store(sum_ptr + offs, s)
    tl.store(max_ptr + offs, m)


@triton.jit
def sort_rows(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.sort(tl.load(x_ptr + offs), descending=True))


@triton.jit
def gather_i64(src_ptr, idx_ptr, dst_ptr, n, stride, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    idx = tl.load(idx_ptr + offs, mask=mask, other=0)
    # The stride is a 64-bit argument: the product does not wrap at 32 bits.
    v = tl.load(src_ptr + (idx * stride) % 4093, mask=mask, other=0.0)
    tl.store(dst_ptr + offs.to(tl.int64), v, mask=mask)


@triton.jit
def atomics(x_ptr, sum_ptr, flags_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.atomic_add(sum_ptr + (x & 7), x, mask=mask)
    tl.atomic_max(sum_ptr + 8 + (x & 3), x, mask=mask)
    # Each flag goes from 0 to its lane's offset once: the old values are 0.
    old = tl.atomic_cas(flags_ptr + offs, tl.zeros_like(offs), offs + 1)
    tl.store(flags_ptr + n + offs, old, mask=mask)


@triton.jit
def small_dot(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    c = tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


@triton.jit
def convert_bf16_fp8(x_ptr, bf_ptr, f8_ptr, back_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    bf = x.to(tl.bfloat16)
    f8 = x.to(tl.float8e5)
    tl.store(bf_ptr + offs, bf, mask=mask)
    tl.store(f8_ptr + offs, f8, mask=mask)
    tl.store(back_ptr + offs, bf.to(tl.float32) + f8.to(tl.float32), mask=mask)


KERNELS = [
    ("where_masked", where_masked, {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32",
                                    "BLOCK": "constexpr"}, {"BLOCK": 256}, {"num_warps": 4}),
    ("scan_pair", scan_pair, {"x_ptr": "*i32", "sum_ptr": "*i32", "max_ptr": "*i32", "BLOCK": "constexpr"},
     {"BLOCK": 128}, {"num_warps": 4}),
    ("sort_rows", sort_rows, {"x_ptr": "*fp32", "out_ptr": "*fp32", "BLOCK": "constexpr"}, {"BLOCK": 128},
     {"num_warps": 4}),
    ("gather_i64", gather_i64, {"src_ptr": "*fp32", "idx_ptr": "*i64", "dst_ptr": "*fp32", "n": "i32", "stride": "i64",
                                "BLOCK": "constexpr"}, {"BLOCK": 256}, {"num_warps": 4}),
    ("atomics", atomics, {"x_ptr": "*i32", "sum_ptr": "*i32", "flags_ptr": "*i32", "n": "i32", "BLOCK": "constexpr"},
     {"BLOCK": 128}, {"num_warps": 4}),
    ("small_dot", small_dot, {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "constexpr", "N": "constexpr",
                              "K": "constexpr"}, {"M": 16, "N": 16, "K": 16}, {"num_warps": 1}),
    ("convert_bf16_fp8", convert_bf16_fp8, {"x_ptr": "*fp32", "bf_ptr": "*bf16", "f8_ptr": "*fp8e5", "back_ptr": "*fp32",
                                            "n": "i32", "BLOCK": "constexpr"}, {"BLOCK": 256}, {"num_warps": 4}),
]
