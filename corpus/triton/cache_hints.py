"""Loads and stores with Triton's cache and eviction hints: `eviction_policy` becomes an L2
cache policy (createpolicy) and `.L2::cache_hint` accesses, `cache_modifier` the PTX cache
operators (.cg, .cs, .wt) and the L1 eviction priorities."""
import triton
import triton.language as tl


@triton.jit
def evict_hints(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, eviction_policy="evict_last")
    y = tl.load(y_ptr + offs, mask=mask, eviction_policy="evict_first")
    tl.store(out_ptr + offs, x * y, mask=mask, eviction_policy="evict_first")


@triton.jit
def cache_modifiers(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, cache_modifier=".cg")
    tl.store(out_ptr + offs, x + 1.0, mask=mask, cache_modifier=".cs")


KERNELS = [
    ("evict_hints", evict_hints, {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32",
                                  "BLOCK": "constexpr"}, {"BLOCK": 512}, {"num_warps": 4}),
    ("cache_modifiers", cache_modifiers, {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
     {"BLOCK": 512}, {"num_warps": 4}),
]
