#!/usr/bin/env python3
"""Writes the launch specs of this folder: one `NAME.KERNEL.json` per kernel of
the realistic corpus (`../shared/corpus/kernels/NAME.cu`), in the launch-spec
format of scripts/README.md ("Launch specs").

    tests/data/launch/generate.py          # rewrites every spec here

Each spec is a small launch (at most 4096 threads) whose every memory access
stays in bounds and aligned, whose loops end quickly, and whose size
parameters leave some threads outside `i < n`; its "note" says why. The
values of hex fills come from a SplitMix64 generator seeded per spec, so the
output is the same on every run and every Python. `scripts/check-launch-specs.py`
checks the result against the kernels' PTX parameter lists.

Standard library only.
"""

import json
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
MASK64 = (1 << 64) - 1
INF = float("inf")
NAN = float("nan")


class Rng:
    """SplitMix64 (the generator of the spec format's random fill), used here
    to choose hex fill values reproducibly."""

    def __init__(self, seed):
        self.state = seed & MASK64

    def u64(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def u32(self):
        return self.u64() >> 32

    def below(self, n):
        return self.u64() % n

    def int_in(self, lo, hi):
        """An integer in lo..=hi."""
        return lo + self.below(hi - lo + 1)

    def unit(self):
        return (self.u64() >> 11) / float(1 << 53)

    def uniform(self, lo, hi):
        return lo + (hi - lo) * self.unit()

    def pick(self, items):
        return items[self.below(len(items))]


# ---- encodings -------------------------------------------------------------

def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f64_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def f16_bits(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]


def bf16_bits(x):
    """float -> bf16 with round to nearest even (NaN kept quiet)."""
    b = f32_bits(x)
    if (b & 0x7F800000) == 0x7F800000 and (b & 0x7FFFFF):
        return (b >> 16) | 0x40
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF


def pack(fmt, values):
    return b"".join(struct.pack("<" + fmt, v) for v in values)


def f32s(values):
    return pack("I", [f32_bits(v) for v in values])


def f64s(values):
    return pack("Q", [f64_bits(v) for v in values])


def f16s(values):
    return pack("H", [f16_bits(v) for v in values])


def bf16s(values):
    return pack("H", [bf16_bits(v) for v in values])


def i32s(values):
    return pack("I", [v & 0xFFFFFFFF for v in values])


def i64s(values):
    return pack("Q", [v & MASK64 for v in values])


def u8s(values):
    return bytes(v & 0xFF for v in values)


# ---- value sets ------------------------------------------------------------

F32_SPECIALS = [0.0, -0.0, INF, -INF, NAN, 1e-40, -1e-42, 3e38, -3e38, 1.0, -1.0, 0.5]


def mixed(rng, count, lo, hi, specials=F32_SPECIALS, every=16):
    """`count` floats uniform in [lo, hi], every `every`-th one (from a
    random start) replaced by the next special value."""
    out = [rng.uniform(lo, hi) for _ in range(count)]
    if specials:
        k = 0
        for i in range(rng.below(every), count, every):
            out[i] = specials[k % len(specials)]
            k += 1
    return out


def log_uniform(rng, count, lo_exp, hi_exp, specials=F32_SPECIALS, every=16):
    """Floats of random sign and magnitude 2**uniform(lo_exp, hi_exp)."""
    out = [(-1 if rng.below(2) else 1) * 2.0 ** rng.uniform(lo_exp, hi_exp) for _ in range(count)]
    if specials:
        k = 0
        for i in range(rng.below(every), count, every):
            out[i] = specials[k % len(specials)]
            k += 1
    return out


def ints_with(rng, count, lo, hi, specials, every=8):
    out = [rng.int_in(lo, hi) for _ in range(count)]
    k = 0
    for i in range(rng.below(every), count, every):
        out[i] = specials[k % len(specials)]
        k += 1
    return out


I32_SPECIALS = [0, 1, -1, 0x7FFFFFFF, -0x80000000, 2, -2, 0x55555555]
U32_SPECIALS = [0, 1, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 2, 0x10000, 0xAAAAAAAA]
U64_SPECIALS = [0, 1, MASK64, 1 << 63, (1 << 63) - 1, 1 << 32, 0xFFFFFFFF, 0xAAAAAAAAAAAAAAAA]


def rand_u32s(rng, count, specials=U32_SPECIALS):
    return ints_with(rng, count, 0, 0xFFFFFFFF, specials)


def rand_u64s(rng, count, specials=U64_SPECIALS):
    return ints_with(rng, count, 0, MASK64, specials)


# ---- parameters --------------------------------------------------------------

def u32(v):
    return {"kind": "u32", "value": "0x%08x" % (v & 0xFFFFFFFF)}


def s32(v):
    return {"kind": "s32", "value": "0x%08x" % (v & 0xFFFFFFFF)}


def u64(v):
    return {"kind": "u64", "value": "0x%016x" % (v & MASK64)}


def s64(v):
    return {"kind": "s64", "value": "0x%016x" % (v & MASK64)}


def f32(x):
    return {"kind": "f32", "value": "0x%08x" % f32_bits(x)}


def f64(x):
    return {"kind": "f64", "value": "0x%016x" % f64_bits(x)}


def agg(data, align):
    return {"kind": "bytes", "hex": data.hex(), "align": align}


def hexbuf(data, output=False):
    return {"kind": "buffer", "bytes": len(data), "fill": "hex", "hex": data.hex(), "output": output}


def rndbuf(nbytes, seed, output=False):
    return {"kind": "buffer", "bytes": nbytes, "fill": "random", "seed": seed, "output": output}


def zerobuf(nbytes, output=True):
    return {"kind": "buffer", "bytes": nbytes, "fill": "zero", "output": output}


SPECS = []


def spec(name, kernel, grid, block, params, note, shared=0):
    grid = list(grid) + [1] * (3 - len(grid))
    block = list(block) + [1] * (3 - len(block))
    threads = math.prod(grid) * math.prod(block)
    assert threads <= 4096 and math.prod(block) <= 1024, (name, kernel, threads)
    SPECS.append((name, kernel, {"kernel": kernel, "grid": grid, "block": block,
                                 "shared_bytes": shared, "note": note, "params": params}))


def seed_of(name, kernel):
    """A seed per spec, stable across runs (no Python hash())."""
    h = 1469598103934665603
    for ch in (name + "." + kernel).encode():
        h = ((h ^ ch) * 1099511628211) & MASK64
    return h


def rng_for(name, kernel):
    return Rng(seed_of(name, kernel))


# The usual 1-D launch: 4 CTAs of 128 threads, n = 500 so that the last 12
# threads fail `i < n`.
G1, B1, N1 = [4], [128], 500
ONE_D = "1-D launch of 4x128 threads with n = 500: the last 12 threads fail i < n; buffers hold exactly n elements"


# ---- activations.cu ------------------------------------------------------------

def activations():
    nm = "activations"
    n = N1
    spec(nm, "relu", G1, B1, [rndbuf(4 * n, 101), zerobuf(4 * n), s32(n)],
         ONE_D + "; input is raw random bit patterns (NaNs, infinities, denormals): fmaxf is defined for all")
    r = rng_for(nm, "leaky_relu")
    spec(nm, "leaky_relu", G1, B1, [hexbuf(f32s(mixed(r, n, -4, 4))), zerobuf(4 * n), f32(0.01), s32(n)],
         ONE_D + "; inputs uniform in [-4, 4] with specials (0, -0, inf, NaN, denormals, huge), slope 0.01")
    for k, (lo, hi) in {"sigmoid": (-20, 20), "gelu_tanh": (-6, 6), "gelu_erf": (-6, 6)}.items():
        r = rng_for(nm, k)
        spec(nm, k, G1, B1, [hexbuf(f32s(mixed(r, n, lo, hi))), zerobuf(4 * n), s32(n)],
             ONE_D + f"; inputs uniform in [{lo}, {hi}] (where the function is not flat) with specials")
    r = rng_for(nm, "relu_backward")
    spec(nm, "relu_backward", G1, B1,
         [rndbuf(4 * n, 102), hexbuf(f32s(mixed(r, n, -2, 2))), zerobuf(4 * n), s32(n)],
         ONE_D + "; grad is random bits (only copied), x uniform in [-2, 2] with specials (NaN > 0 is false)")


# ---- atomic_cas.cu --------------------------------------------------------------

def atomic_cas():
    nm = "atomic_cas"
    n = 200
    r = rng_for(nm, "cas_float_ops")
    # Values whose factor 1 + v*1e-3f (an FMA) is exactly 1.0 (|v| < 2.9e-5:
    # below 1.0 half an ulp is 2^-25) or
    # 2.0 (v = 1000), so the product is a power of two whatever the order of
    # the CAS loops, and no NaN, so the maximum is order independent too.
    vals = []
    for i in range(n):
        if r.below(12) == 0:
            vals.append(1000.0)
        else:
            vals.append(r.uniform(-2e-5, 2e-5) * r.pick([1.0, 1e-3, 1e-30, 1e-36]))
    vals[7] = -0.0
    vals[8] = 1e-42
    spec(nm, "cas_float_ops", [2], [128],
         [hexbuf(f32s(vals)), hexbuf(f32s([-INF]), True), hexbuf(f32s([1.0]), True), s32(n)],
         "2x128 threads, n = 200 (56 threads fail i < n). Inputs are tiny (|v| < 2e-5, so fma(v, 1e-3f, 1) "
         "is exactly 1.0) or 1000 (factor exactly 2.0) and never NaN: the CAS max (from -inf) and the CAS "
         "product (from 1.0, a power of two) do not depend on the order the threads win their CAS")
    r = rng_for(nm, "cas_double_sum")
    vals = [r.int_in(-4000, 4000) / 4.0 for _ in range(n)]
    spec(nm, "cas_double_sum", [2], [128], [hexbuf(f64s(vals)), hexbuf(f64s([0.5]), True), s32(n)],
         "2x128 threads, n = 200. Inputs are multiples of 0.25 in [-1000, 1000] so every partial sum is "
         "exact in double: the CAS-loop sum is the same in any order")
    spec(nm, "bounded_increment", [2], [128], [hexbuf(i32s([0]), True), s32(150), zerobuf(4 * n), s32(n)],
         "2x128 threads, n = 200, limit 150: the counter ends at 150 and 50 threads get -1. ORDER-DEPENDENT: "
         "which value (or -1) each thread gets depends on the order the CAS attempts are made")
    r = rng_for(nm, "misc_atomics")
    v = ints_with(r, n, -100000, 100000, I32_SPECIALS)
    spec(nm, "misc_atomics", [2], [128],
         [hexbuf(i32s([1000, 0x7FFFFFFF, -1]), True), hexbuf(i32s([0xFFFFFFFF, 0, 0x12345678, 50]), True),
          hexbuf(i32s(v)), s32(n)],
         "2x128 threads, n = 200. a = {1000, INT_MAX, -1}, u = {~0, 0, 0x12345678, 50}: sub/min/and/or/xor are "
         "order independent, and so is atomicDec (the same step applied n times; it wraps at 0 to 1000 here). "
         "ORDER-DEPENDENT: a[2] = atomicExch(i) keeps the last thread's index")


# ---- bf16_ops.cu -------------------------------------------------------------------

def bf16_ops():
    nm = "bf16_ops"
    n = N1
    spec(nm, "f32_to_bf16", G1, B1, [rndbuf(4 * n, 201), zerobuf(2 * n), s32(n)],
         ONE_D + "; random float bit patterns exercise rounding, NaN and overflow to inf")
    spec(nm, "bf16_to_f32", G1, B1, [rndbuf(2 * n, 202), zerobuf(4 * n), s32(n)],
         ONE_D + "; random bf16 bit patterns (every pattern converts exactly)")
    r = rng_for(nm, "bf162_fma")
    spec(nm, "bf162_fma", G1, B1,
         [hexbuf(bf16s(mixed(r, 2 * n, -8, 8))), hexbuf(bf16s(mixed(r, 2 * n, -8, 8))),
          hexbuf(bf16s(mixed(r, 2 * n, -8, 8)), True), s32(n)],
         ONE_D + " bf162 pairs; values uniform in [-8, 8] with specials; c is read and written")
    r = rng_for(nm, "bf16_gemv")
    rows, cols = 100, 64
    spec(nm, "bf16_gemv", [1], [128],
         [hexbuf(bf16s(mixed(r, rows * cols, -2, 2, specials=None))), hexbuf(bf16s(mixed(r, cols, -2, 2, specials=None))),
          zerobuf(4 * rows), s32(rows), s32(cols)],
         "1x128 threads, rows = 100 (28 threads fail r < rows), cols = 64: A is rows*cols bf16, x cols bf16, "
         "y rows floats; finite values in [-2, 2]")
    spec(nm, "bf16_round_trip", G1, B1, [rndbuf(4 * n, 203), zerobuf(8 * n), s32(n)],
         ONE_D + "; err holds 2n floats; random float bit patterns (rn vs rz rounding, NaN, inf)")


# ---- bitops.cu -------------------------------------------------------------------------

def bitops():
    nm = "bitops"
    n = N1
    r = rng_for(nm, "bit_counts")
    spec(nm, "bit_counts", G1, B1, [hexbuf(i32s(rand_u32s(r, n))), zerobuf(16 * n), s32(n)],
         ONE_D + "; out holds 4n ints; random words with 0, 1, ~0, 0x80000000 ... mixed in")
    r = rng_for(nm, "bit_counts64")
    spec(nm, "bit_counts64", G1, B1, [hexbuf(i64s(rand_u64s(r, n))), zerobuf(12 * n), s32(n)],
         ONE_D + "; out holds 3n ints; random 64-bit words with 0, 1, ~0, 1<<63 ... mixed in")
    spec(nm, "bit_reverse_swap", G1, B1, [rndbuf(4 * n, 204), zerobuf(4 * n), zerobuf(4 * n), s32(n)],
         ONE_D + "; random words")
    spec(nm, "rotate_mix", G1, B1, [rndbuf(4 * n, 205), rndbuf(4 * n, 206), zerobuf(4 * n), s32(n)],
         ONE_D + "; random words (every funnel-shift amount y & 31 occurs)")
    r = rng_for(nm, "bitfield_ops")
    spec(nm, "bitfield_ops", G1, B1, [hexbuf(i32s(rand_u32s(r, n))), zerobuf(4 * n), s32(5), s32(11), s32(n)],
         ONE_D + "; pos = 5, len = 11 (shift amounts below 32); random words with 0 and powers of two mixed in")


# ---- casts.cu ----------------------------------------------------------------------------

def casts():
    nm = "casts"
    n = N1
    r = rng_for(nm, "int_widths")
    spec(nm, "int_widths", G1, B1,
         [hexbuf(i64s(rand_u64s(r, n))), zerobuf(n), zerobuf(n), zerobuf(2 * n), zerobuf(2 * n), zerobuf(4 * n),
          zerobuf(4 * n), s32(n)],
         ONE_D + "; random 64-bit values (with 0, -1, extremes) truncated to every width")
    spec(nm, "widen_sum", G1, B1,
         [rndbuf(n, 207), rndbuf(n, 208), rndbuf(2 * n, 209), rndbuf(2 * n, 210), rndbuf(4 * n, 211),
          zerobuf(8 * n), s32(n)],
         ONE_D + "; random s8/u8/s16/u16/u32 inputs, sign and zero extension to 64 bits")
    r = rng_for(nm, "int_float_conv")
    spec(nm, "int_float_conv", G1, B1,
         [hexbuf(i32s(ints_with(r, n, -0x80000000, 0x7FFFFFFF, I32_SPECIALS))), hexbuf(i32s(rand_u32s(r, n))),
          hexbuf(i64s(rand_u64s(r, n))), hexbuf(i64s(rand_u64s(r, n))), zerobuf(16 * n), zerobuf(32 * n), s32(n)],
         ONE_D + "; f and d hold 4n values each; random integers with extremes (rounding of wide values)")
    r = rng_for(nm, "float_int_conv")
    fvals = mixed(r, n, -400, 400)
    for i in range(3, n, 7):
        fvals[i] = log_uniform(r, 1, -10, 70, specials=None)[0]
    dvals = mixed(r, n, -70000, 70000)
    for i in range(5, n, 7):
        dvals[i] = log_uniform(r, 1, -10, 70, specials=None)[0]
    spec(nm, "float_int_conv", G1, B1,
         [hexbuf(f32s(fvals)), hexbuf(f64s(dvals)), zerobuf(4 * n), zerobuf(4 * n), zerobuf(8 * n), zerobuf(8 * n),
          zerobuf(2 * n), zerobuf(n), s32(n)],
         ONE_D + "; floats in range of the targets and out of it (PTX cvt saturates; NaN gives 0), "
         "with specials")
    r = rng_for(nm, "rounding_modes")
    fvals = [r.int_in(-400, 400) / 4.0 for _ in range(n)]  # many exact .5 and .25 ties
    for i in range(1, n, 5):
        fvals[i] = r.uniform(-1e6, 1e6)
    for i, s in zip(range(2, n, 29), F32_SPECIALS):
        fvals[i] = s
    dvals = mixed(r, n, -1e5, 1e5, specials=[0.0, -0.0, INF, -INF, NAN, 1e-310, 65504.0, 65520.0, 1e300, 2.5, -3.5])
    spec(nm, "rounding_modes", G1, B1,
         [hexbuf(f32s(fvals)), hexbuf(f64s(dvals)), zerobuf(16 * n), zerobuf(8 * n), zerobuf(2 * n), s32(n)],
         ONE_D + "; out holds 4n ints, fo 2n floats, h n halves; f has many exact ties (multiples of 0.25), "
         "d covers the half range edge (65504, 65520) and specials")


# ---- conditions.cu ---------------------------------------------------------------------------

def conditions():
    nm = "conditions"
    n = N1
    r = rng_for(nm, "classify_points")
    spec(nm, "classify_points", G1, B1,
         [hexbuf(f32s(mixed(r, n, -6, 3))), hexbuf(f32s(mixed(r, n, -3, 3, every=11))), zerobuf(4 * n), s32(n)],
         ONE_D + "; x in [-6, 3], y in [-3, 3] reach every class, NaNs included for class 5")
    r = rng_for(nm, "int_minmax_abs")
    a = ints_with(r, n, -3000, 3000, I32_SPECIALS)
    b = ints_with(r, n, -3000, 3000, I32_SPECIALS, every=5)
    spec(nm, "int_minmax_abs", G1, B1, [hexbuf(i32s(a)), hexbuf(i32s(b)), zerobuf(16 * n), s32(-1000), s32(1000), s32(n)],
         ONE_D + "; out holds 4n ints; small values in [-3000, 3000] around the clamp [-1000, 1000] plus "
         "extremes (wrapping add and abs of INT_MIN are defined in PTX)")
    r = rng_for(nm, "select_chain")
    spec(nm, "select_chain", G1, B1,
         [hexbuf(f32s(mixed(r, n, -200, 200))), rndbuf(4 * n, 212), zerobuf(4 * n), f32(0.5), s32(n)],
         ONE_D + "; v in [-200, 200] around the 100 clamp with specials, random mask bits, thresh 0.5")
    w, h = 45, 30
    spec(nm, "bounds_check_2d", [3, 2], [16, 16],
         [rndbuf(4 * w * h, 213), zerobuf(4 * w * h), s32(w), s32(h), s32(2)],
         "2-D: 3x2 CTAs of 16x16 cover 48x32 pixels, image 45x30 (threads past w or h return), border r = 2; "
         "img and out hold w*h floats; img is random bits (only copied or halved)")


# ---- constant_mem.cu --------------------------------------------------------------------------

CONST_NOTE = ("a launch spec cannot set __constant__ memory, so c_taps, c_filter, c_poly and c_gamma_lut "
              "are all zero, as PTX leaves uninitialized .const data; __device__ globals start at zero in a "
              "fresh module")


def constant_mem():
    nm = "constant_mem"
    n = N1
    r = rng_for(nm, "conv1d_const")
    spec(nm, "conv1d_const", G1, B1, [hexbuf(f32s(mixed(r, n, -1, 1))), zerobuf(4 * n), s32(n)],
         ONE_D + "; " + CONST_NOTE + ": with c_taps = 0 the tap loop runs no times and out is all zero "
         "(the input is never read)")
    r = rng_for(nm, "poly_const")
    spec(nm, "poly_const", G1, B1, [hexbuf(f32s(mixed(r, n, -3, 3))), zerobuf(4 * n), s32(n)],
         ONE_D + "; " + CONST_NOTE + ": y = 0*t + 0, which is NaN for t = inf/NaN and -0/+0 otherwise")
    spec(nm, "gamma_correct", G1, B1, [rndbuf(512, 214, True), s32(n)],
         "1-D launch of 4x128 threads, n = 500, img has 512 bytes: the last 12 stay as they were; " + CONST_NOTE
         + ": the first n bytes become c_gamma_lut[x] = 0")
    spec(nm, "build_table", [9], [128], [f32(0.25)],
         "9x128 = 1152 threads, the last 128 fail i < 1024; writes only the __device__ array g_table, so "
         "no buffer shows the result (the run checks only that the launch completes)")
    r = rng_for(nm, "lookup_table")
    spec(nm, "lookup_table", G1, B1, [rndbuf(4 * n, 215), zerobuf(4 * n), hexbuf(i32s([0xDEADBEEF]), True), s32(n)],
         ONE_D + "; idx is random (the kernel masks it with 1023); " + CONST_NOTE
         + ": g_table and g_clip_count are zero, so out is zero and clips becomes 0")


# ---- double_math.cu ----------------------------------------------------------------------------

F64_SPECIALS = [0.0, -0.0, INF, -INF, NAN, 1e-310, -4e-320, 1e300, -1e300, 1.0, -1.0, 2.0]


def double_math():
    nm = "double_math"
    n = N1
    r = rng_for(nm, "dp_basic")
    spec(nm, "dp_basic", G1, B1,
         [hexbuf(f64s(mixed(r, n, -100, 100, F64_SPECIALS))), hexbuf(f64s(mixed(r, n, -10, 10, F64_SPECIALS + [-1.0]))),
          zerobuf(32 * n), s32(n)],
         ONE_D + "; out holds 4n doubles; a in [-100, 100], b in [-10, 10] (b = -1 divides by zero) with specials")
    r = rng_for(nm, "dp_exp_log")
    spec(nm, "dp_exp_log", G1, B1, [hexbuf(f64s(mixed(r, n, -40, 40, F64_SPECIALS))), zerobuf(8 * n), s32(n)],
         ONE_D + "; x in [-40, 40] (exp underflows past about 38) with specials")
    r = rng_for(nm, "dp_newton_cbrt")
    spec(nm, "dp_newton_cbrt", G1, B1, [hexbuf(f64s(mixed(r, n, -1000, 1000, F64_SPECIALS))), zerobuf(8 * n), s32(n)],
         ONE_D + "; v in [-1000, 1000] with specials; the loop has a fixed 20 iterations")
    r = rng_for(nm, "dp_horner")
    deg = 7
    spec(nm, "dp_horner", G1, B1,
         [hexbuf(f64s(mixed(r, n, -2, 2, F64_SPECIALS))), zerobuf(8 * n), hexbuf(f64s(mixed(r, deg + 1, -3, 3, None))),
          s32(deg), s32(n)],
         ONE_D + "; degree 7, so coef holds 8 doubles; x in [-2, 2] with specials")
    r = rng_for(nm, "dp_distance")
    spec(nm, "dp_distance", G1, B1,
         [hexbuf(f64s(mixed(r, n, -50, 50, F64_SPECIALS))), hexbuf(f64s(mixed(r, n, -50, 50, None))),
          hexbuf(f64s(mixed(r, n, -50, 50, None))), f64(1.5), f64(-2.25), f64(0.125), zerobuf(8 * n), s32(n)],
         ONE_D + "; points in [-50, 50]^3 (px with specials), centre (1.5, -2.25, 0.125)")


# ---- dyn_shared.cu ---------------------------------------------------------------------------------

def dyn_shared():
    nm = "dyn_shared"
    n = N1
    spec(nm, "reverse_block", G1, B1, [rndbuf(4 * n, 216, True), s32(n)],
         ONE_D + "; d is read and written; shared_bytes = 128 floats (one per thread); in the last CTA "
         "only pairs with both ends below n are swapped", shared=4 * 128)
    r = rng_for(nm, "carve_shared")
    flags = [0 if r.below(2) else r.int_in(1, 255) for _ in range(n)]
    spec(nm, "carve_shared", G1, B1,
         [hexbuf(f32s(mixed(r, n, -10, 10))), rndbuf(4 * n, 217), hexbuf(u8s(flags)), zerobuf(4 * n), s32(n)],
         ONE_D + "; blockDim 128 is a power of two (partner = k & (blockDim - 1)); shared_bytes = "
         "128 * (4 + 4 + 1) for the float, int and byte arrays; about half the flags are zero",
         shared=128 * 9)
    radius = 3
    spec(nm, "stencil1d_dyn", G1, B1, [rndbuf(4 * n, 218), zerobuf(4 * n), s32(radius), s32(n)],
         ONE_D + "; radius 3, shared_bytes = (128 + 2*3) floats for the tile and its halo; random input bits",
         shared=4 * (128 + 2 * radius))
    r = rng_for(nm, "dyn_shared_double")
    spec(nm, "dyn_shared_double", G1, B1, [hexbuf(f64s(mixed(r, n, -10, 10, F64_SPECIALS))), zerobuf(8 * n), s32(n)],
         ONE_D + "; shared_bytes = 128 doubles", shared=8 * 128)


# ---- early_exit.cu ------------------------------------------------------------------------------

def early_exit():
    nm = "early_exit"
    r = rng_for(nm, "find_first")
    length, nkeys = 64, 200
    data = [r.int_in(0, 99) for _ in range(length)]
    keys = [r.int_in(0, 119) for _ in range(nkeys)]
    spec(nm, "find_first", [2], [128],
         [hexbuf(i32s(data)), s32(length), hexbuf(i32s(keys)), zerobuf(4 * nkeys), s32(nkeys)],
         "2x128 threads, nkeys = 200 (56 threads fail i < nkeys), data has len = 64 values in 0..99 "
         "(duplicates: the first match wins), keys in 0..119 so some are absent (-1)")
    r = rng_for(nm, "lower_bound")
    length, nq = 100, 200
    sorted_vals = sorted(r.int_in(-200, 200) / 4.0 for _ in range(length))
    q = [r.int_in(-240, 240) / 4.0 for _ in range(nq)]
    for i, s in zip(range(3, nq, 37), [NAN, INF, -INF, -0.0, sorted_vals[0], sorted_vals[-1]]):
        q[i] = s
    spec(nm, "lower_bound", [2], [128],
         [hexbuf(f32s(sorted_vals)), s32(length), hexbuf(f32s(q)), zerobuf(4 * nq), s32(nq)],
         "2x128 threads, nq = 200; sorted holds len = 100 ascending floats (no NaN, with duplicates), queries "
         "below, inside and above the range plus NaN and infinities (the loop always ends: lo < hi narrows)")
    w, h = 60, 40
    spec(nm, "mandelbrot", [4, 3], [16, 16],
         [zerobuf(4 * w * h), s32(w), s32(h), f32(-2.0), f32(-1.0), f32(0.05), f32(0.05), s32(64)],
         "2-D: 4x3 CTAs of 16x16 cover 64x48 threads, image 60x40 (the rest return); the view [-2, 1] x [-1, 1] "
         "with max_iter = 64 bounds the loop (at most 2400 * 64 iterations)")
    r = rng_for(nm, "collatz_steps")
    n = 200
    starts = [r.int_in(1, 1000) for _ in range(n)]
    for i, s in zip(range(0, n, 23), [0, 1, 2, 27, 97, 871, 703, 0xFFFFFFFF, 6171]):
        starts[i] = s
    spec(nm, "collatz_steps", [2], [128], [hexbuf(i32s(starts)), zerobuf(4 * n), s32(150), s32(n)],
         "2x128 threads, n = 200; starts in 1..1000 plus 0, 1, 27 (111 steps), 871 (178), 0xffffffff: "
         "limit = 150 bounds every loop and some reach it (-1: 871 takes 178, 6171 takes 261); v is 64-bit and "
         "stays below 2^52 in 150 steps from any 32-bit start tried here")


# ---- fast_math.cu ---------------------------------------------------------------------------------

def fast_math():
    nm = "fast_math"
    n = N1
    r = rng_for(nm, "fast_intrinsics")
    spec(nm, "fast_intrinsics", G1, B1,
         [hexbuf(f32s(mixed(r, n, -10, 10))), hexbuf(f32s(mixed(r, n, -10, 10, every=13))), zerobuf(24 * n), s32(n)],
         ONE_D + "; out holds 6n floats; x and y in [-10, 10] with specials")
    r = rng_for(nm, "accurate_math")
    x = mixed(r, n, -100, 100)
    for i in range(5, n, 19):
        x[i] = log_uniform(r, 1, 10, 127, specials=None)[0]  # sinf/cosf slow-path argument reduction
    spec(nm, "accurate_math", G1, B1, [hexbuf(f32s(x)), hexbuf(f32s(mixed(r, n, -8, 8, every=13))), zerobuf(32 * n), s32(n)],
         ONE_D + "; out holds 8n floats; x in [-100, 100] plus large magnitudes up to 2^127 (the slow-path "
         "argument reduction of sinf/cosf, with its local array) and specials; y in [-8, 8]")
    r = rng_for(nm, "softplus_clip")
    spec(nm, "softplus_clip", G1, B1, [hexbuf(f32s(mixed(r, n, -30, 30))), zerobuf(4 * n), f32(0.01), f32(15.0), s32(n)],
         ONE_D + "; x in [-30, 30] (both sides of the v > 20 shortcut) with specials; lo 0.01, hi 15")
    r = rng_for(nm, "polar_to_cart")
    theta = mixed(r, n, -10, 10)
    for i in range(4, n, 17):
        theta[i] = log_uniform(r, 1, 5, 127, specials=None)[0]
    spec(nm, "polar_to_cart", G1, B1,
         [hexbuf(f32s(mixed(r, n, 0, 10))), hexbuf(f32s(theta)), zerobuf(4 * n), zerobuf(4 * n), s32(n)],
         ONE_D + "; r in [0, 10], theta in [-10, 10] plus large magnitudes (sincosf slow path) and specials")


# ---- half_ops.cu -------------------------------------------------------------------------------------

H_SPECIALS = [0.0, -0.0, INF, -INF, NAN, 6e-8, -3e-5, 65504.0, -65504.0, 1.0, 0.5]


def half_ops():
    nm = "half_ops"
    n = N1
    r = rng_for(nm, "h2_axpy")
    spec(nm, "h2_axpy", G1, B1,
         [s32(n), agg(f16s([0.5, -2.0]), 4), hexbuf(f16s(mixed(r, 2 * n, -100, 100, H_SPECIALS))),
          hexbuf(f16s(mixed(r, 2 * n, -100, 100, H_SPECIALS)), True)],
         ONE_D + " half2 pairs; a = (0.5, -2.0) by value (4 bytes, align 4); x and y in [-100, 100] with "
         "specials; y is read and written")
    r = rng_for(nm, "h2_add_mul")
    spec(nm, "h2_add_mul", G1, B1,
         [hexbuf(f16s(mixed(r, 2 * n, -300, 300, H_SPECIALS))), hexbuf(f16s(mixed(r, 2 * n, -300, 300, H_SPECIALS))),
          zerobuf(4 * n), zerobuf(4 * n), s32(n)],
         ONE_D + " half2 pairs; values in [-300, 300] (products overflow half past 65504) with specials")
    r = rng_for(nm, "f32_to_f16")
    spec(nm, "f32_to_f16", G1, B1, [hexbuf(f32s(log_uniform(r, n, -30, 17))), zerobuf(2 * n), s32(n)],
         ONE_D + "; magnitudes 2^-30 .. 2^17 cover half denormals, normals and overflow, with specials")
    spec(nm, "f16_to_f32_scale", G1, B1, [rndbuf(2 * n, 219), zerobuf(4 * n), f32(3.0), s32(n)],
         ONE_D + "; random half bit patterns (every one converts), scale 3.0")
    r = rng_for(nm, "h_relu_clamp")
    spec(nm, "h_relu_clamp", G1, [128], [hexbuf(f16s(mixed(r, n, -10, 10, H_SPECIALS)), True), agg(f16s([6.0]), 2), s32(n)],
         ONE_D + "; x is read and written, values in [-10, 10] with specials; limit = 6.0 by value (2 bytes, align 2)")
    r = rng_for(nm, "h2_dot")
    spec(nm, "h2_dot", G1, B1,
         [hexbuf(f16s([r.int_in(-8, 8) for _ in range(2 * n)])), hexbuf(f16s([r.int_in(-8, 8) for _ in range(2 * n)])),
          hexbuf(f32s([0.25]), True), s32(n)],
         ONE_D + " half2 pairs; whole warps shuffle (blockDim is a multiple of 32). Values are small integers, "
         "so products and all sums are exact and the float atomicAdd total is the same in any order")
    r = rng_for(nm, "h_atomic_accum")
    spec(nm, "h_atomic_accum", G1, B1, [zerobuf(64 * 4), hexbuf(f32s([r.int_in(-16, 16) / 2.0 for _ in range(n)])), s32(n)],
         ONE_D + "; acc holds 64 half2 (i & 63); vals are multiples of 0.5 in [-8, 8], about 8 per slot, so "
         "every half sum is exact and the atomic order does not matter")


# ---- histogram.cu --------------------------------------------------------------------------------------

def histogram():
    nm = "histogram"
    n = 2000
    spec(nm, "histogram256", G1, B1, [rndbuf(n, 220), zerobuf(256 * 4), s32(n)],
         "4x128 threads with a grid-stride loop over n = 2000 random bytes (4 rounds, the last partial); "
         "hist has 256 bins; integer atomics, so order independent")
    r = rng_for(nm, "histogram_float")
    n, nbins = N1, 40
    x = mixed(r, n, -3, 4)
    spec(nm, "histogram_float", G1, B1, [hexbuf(f32s(x)), zerobuf(4 * nbins), s32(nbins), f32(-2.0), f32(3.0), s32(n)],
         ONE_D + "; 40 bins over [-2, 3) (values in [-3, 4] and infinities clamp to the end bins, NaN "
         "converts to bin 0); shared_bytes = 40 ints for the block's bins", shared=4 * nbins)


# ---- int64_math.cu ---------------------------------------------------------------------------------------

def int64_math():
    nm = "int64_math"
    n = N1
    r = rng_for(nm, "i64_mul_div")
    a = rand_u64s(r, n)
    b = [r.pick([r.u64(), r.int_in(-1000, 1000), r.u64() >> r.int_in(1, 62), 0, 1, MASK64]) for _ in range(n)]
    for i in range(n):  # no INT64_MIN / -1: that quotient overflows
        if a[i] == 1 << 63 and b[i] & MASK64 == MASK64:
            b[i] = 3
    spec(nm, "i64_mul_div", G1, B1,
         [hexbuf(i64s(a)), hexbuf(i64s(b)), zerobuf(8 * n), zerobuf(8 * n), zerobuf(8 * n), s32(n)],
         ONE_D + "; random 64-bit values with small, zero (the y == 0 branch) and -1 divisors; no INT64_MIN / -1")
    r = rng_for(nm, "u64_divmod_var")
    spec(nm, "u64_divmod_var", G1, B1,
         [hexbuf(i64s(rand_u64s(r, n))), u64(0x000000123456789B), zerobuf(8 * n), zerobuf(8 * n), s32(n)],
         ONE_D + "; divisor 0x123456789b (wider than 32 bits, nonzero)")
    r = rng_for(nm, "u64_mulhi_shift")
    spec(nm, "u64_mulhi_shift", G1, B1,
         [hexbuf(i64s(rand_u64s(r, n))), hexbuf(i64s(rand_u64s(r, n))), zerobuf(8 * n), zerobuf(8 * n), s32(n)],
         ONE_D + "; random 64-bit values (y & 63 = 0 gives a shift by 64, which PTX clamps)")
    spec(nm, "rng_xorshift64", G1, B1, [u64(0x0123456789ABCDEF), zerobuf(4 * n), s32(n)],
         ONE_D + "; seed 0x0123456789abcdef")
    r = rng_for(nm, "i64_abs_minmax")
    spec(nm, "i64_abs_minmax", G1, B1,
         [hexbuf(i64s([r.pick([r.u64(), r.int_in(-5000, 5000), r.u64() >> 20, 1 << 63]) for _ in range(n)])),
          zerobuf(8 * n), s64(1000), s64(1 << 40), s32(n)],
         ONE_D + "; lo = 1000, hi = 2^40; values small, mid-size, random and INT64_MIN (llabs keeps it negative)")


# ---- int_division.cu ----------------------------------------------------------------------------------------

def int_division():
    nm = "int_division"
    n = N1
    r = rng_for(nm, "div_by_variable")
    a = ints_with(r, n, -0x80000000, 0x7FFFFFFF, I32_SPECIALS)
    b = [r.pick([0, 1, -1, 7, -3, r.int_in(-100, 100), r.int_in(-0x80000000, 0x7FFFFFFF)]) for _ in range(n)]
    for i in range(n):  # no INT_MIN / -1: that quotient overflows
        if a[i] == -0x80000000 and b[i] == -1:
            b[i] = 2
    spec(nm, "div_by_variable", G1, B1, [hexbuf(i32s(a)), hexbuf(i32s(b)), zerobuf(4 * n), zerobuf(4 * n), s32(n)],
         ONE_D + "; random and extreme dividends; divisors small, random, zero (the kernel uses 1) and -1; "
         "no INT_MIN / -1")
    r = rng_for(nm, "udiv_by_variable")
    spec(nm, "udiv_by_variable", G1, B1, [hexbuf(i32s(rand_u32s(r, n))), u32(7919), zerobuf(4 * n), zerobuf(4 * n), s32(n)],
         ONE_D + "; divisor 7919")
    r = rng_for(nm, "div_by_constants")
    spec(nm, "div_by_constants", G1, B1, [hexbuf(i32s(ints_with(r, n, -0x80000000, 0x7FFFFFFF, I32_SPECIALS + [-5, 5, 9, -10]))),
                                           zerobuf(24 * n), s32(n)],
         ONE_D + "; out holds 6n ints; random and extreme dividends")
    r = rng_for(nm, "udiv_by_constants")
    spec(nm, "udiv_by_constants", G1, B1, [hexbuf(i32s(rand_u32s(r, n))), zerobuf(16 * n), s32(n)],
         ONE_D + "; out holds 4n ints; random and extreme dividends")
    nx, ny, nz = 7, 5, 9
    spec(nm, "index_to_coords", [3], [128], [zerobuf(12 * nx * ny * nz), s32(nx), s32(ny), s32(nz)],
         "3x128 = 384 threads for a 7x5x9 = 315-cell volume (69 threads fail the bound); coords holds 3 ints a cell")


# ---- layernorm.cu --------------------------------------------------------------------------------------------

def layernorm():
    nm = "layernorm"
    r = rng_for(nm, "layernorm_warp")
    rows, cols = 10, 80
    spec(nm, "layernorm_warp", [3], [128],
         [hexbuf(f32s(mixed(r, rows * cols, -3, 3, specials=None))), hexbuf(f32s(mixed(r, cols, 0.5, 1.5, None))),
          hexbuf(f32s(mixed(r, cols, -0.5, 0.5, None))), zerobuf(4 * rows * cols), zerobuf(4 * rows), zerobuf(4 * rows),
          s32(rows), s32(cols), f32(1e-5)],
         "one warp per row: 3 CTAs of 128 threads = 12 warps for rows = 10 (the last 2 warps return whole, "
         "before any shuffle); cols = 80 is not a multiple of 32, so lanes loop 2 or 3 times; finite values")
    r = rng_for(nm, "batchnorm_infer")
    ch, sp, total = 6, 20, N1
    spec(nm, "batchnorm_infer", G1, B1,
         [hexbuf(f32s(mixed(r, total, -5, 5))), zerobuf(4 * total), hexbuf(f32s(mixed(r, ch, -1, 1, None))),
          hexbuf(f32s(mixed(r, ch, 0.1, 4, None))), hexbuf(f32s(mixed(r, ch, 0.5, 2, None))),
          hexbuf(f32s(mixed(r, ch, -1, 1, None))), s32(ch), s32(sp), s32(total), f32(1e-5)],
         ONE_D + " (total = 500); channels = 6, spatial = 20: c = (i / 20) % 6 < 6; variances positive")


# ---- ldg_volatile.cu -------------------------------------------------------------------------------------------

def ldg_volatile():
    nm = "ldg_volatile"
    n = N1
    r = rng_for(nm, "gather_ldg")
    m = 300
    spec(nm, "gather_ldg", G1, B1,
         [rndbuf(4 * m, 221), hexbuf(i32s([r.below(m) for _ in range(n)])), zerobuf(4 * n), s32(n)],
         ONE_D + "; src has 300 floats and every idx is in 0..299")
    spec(nm, "ldg_vec", G1, B1, [rndbuf(16 * n, 222), zerobuf(4 * n), s32(n)],
         ONE_D + " float4s (buffers are 256-byte aligned, so 16-byte loads are aligned); random bits")
    r = rng_for(nm, "reduce_volatile")
    spec(nm, "reduce_volatile", G1, B1, [hexbuf(f32s(mixed(r, n, -10, 10))), zerobuf(4 * 4), s32(n)],
         ONE_D + "; blockDim must be 128 (s[128], i = blockIdx.x * 128 + tid); out has one float per CTA. "
         "The legacy warp-synchronous volatile reduction assumes lock-step warps (lanes 0-31 read what "
         "other lanes write without __syncwarp): the interpreters' lock-step result is the classic one")
    spec(nm, "wait_for_flag", G1, [32], [hexbuf(i32s([3]), False), s32(7), zerobuf(4 * 4), s32(25)],
         "4 CTAs of 32 threads; out has one int per CTA. The flag (3) never equals expected (7), so thread 0 "
         "of each CTA polls exactly max_spins = 25 times and writes 25: bounded and deterministic")


# ---- local_array.cu ----------------------------------------------------------------------------------------------

def local_array():
    nm = "local_array"
    n = 200
    r = rng_for(nm, "thread_sort16")
    spec(nm, "thread_sort16", [2], [128], [hexbuf(f32s(mixed(r, 16 * n, -100, 100, every=29))), zerobuf(64 * n), s32(n)],
         "2x128 threads, n = 200; in and out hold 16 floats per thread; values in [-100, 100] with specials "
         "(a NaN key stops its shift, the sort still ends)")
    length = 40
    spec(nm, "thread_hist", [2], [128], [rndbuf(n * length, 223), s32(length), zerobuf(4 * n), s32(n)],
         "2x128 threads, n = 200, len = 40 random bytes per thread (in holds n * len)")
    r = rng_for(nm, "ring_filter")
    win, length = 5, 24
    spec(nm, "ring_filter", [2], [128],
         [hexbuf(f32s(mixed(r, n * length, -1, 1, specials=None))), zerobuf(4 * n * length), s32(win), s32(length), s32(n)],
         "2x128 threads, n = 200; win = 5, len = 24 floats per thread row (x and y hold n * len); finite values")


# ---- noinline_calls.cu --------------------------------------------------------------------------------------------

def noinline_calls():
    nm = "noinline_calls"
    n = N1
    r = rng_for(nm, "eval_poly")
    spec(nm, "eval_poly", G1, B1,
         [hexbuf(f32s(mixed(r, n, -3, 3))), zerobuf(4 * n), f32(0.5), f32(-1.25), f32(2.0), f32(0.75), s32(n)],
         ONE_D + "; x in [-3, 3] with specials; coefficients 0.5, -1.25, 2, 0.75")
    r = rng_for(nm, "sliding_stats")
    spec(nm, "sliding_stats", G1, B1,
         [hexbuf(f32s(mixed(r, n, -5, 5))), zerobuf(4 * n), zerobuf(4 * n), zerobuf(4 * n), s32(9), s32(n)],
         ONE_D + "; win = 9 <= n, so start = clamp(i - 4, 0, n - 9) keeps x[start .. start + 9) inside x")
    r = rng_for(nm, "weighted_gather")
    k = 6
    idx = [r.pick([r.int_in(0, n - 1), r.int_in(-50, n + 50), r.int_in(-0x80000000, 0x7FFFFFFF)]) for _ in range(n * k)]
    w = mixed(r, n * k, -1, 1, specials=[0.0, -0.0, 0.0, 2.0])
    spec(nm, "weighted_gather", G1, B1,
         [hexbuf(f32s(mixed(r, n, -10, 10, None))), hexbuf(i32s(idx)), hexbuf(f32s(w)), zerobuf(4 * n), s32(k), s32(n)],
         ONE_D + "; k = 6 (idx and w hold n * k); indices in range, a little out and random (clamp_index "
         "clamps them to 0..n-1 before any load); some weights zero (the call is skipped)")


# ---- printf_debug.cu -----------------------------------------------------------------------------------------------

def printf_debug():
    nm = "printf_debug"
    r = rng_for(nm, "debug_print")
    n = 100
    data = mixed(r, n, -10, 10, specials=None)
    data[37] = NAN
    data[64] = -NAN
    spec(nm, "debug_print", [1], [128], [hexbuf(f32s(data)), s32(n), s32(25)],
         "1x128 threads, n = 100 (28 return), every = 25: four 'block ...' lines, two NaN lines (37, 64) and "
         "the i == 0 line. The kernel writes no buffer; printf output is not part of the compared output")


# ---- recursion.cu ----------------------------------------------------------------------------------------------------

def recursion():
    nm = "recursion"
    n = 200
    spec(nm, "rec_factorial", [2], [128], [rndbuf(4 * n, 224), zerobuf(8 * n), s32(n)],
         "2x128 threads, n = 200; random input, the kernel takes in & 15, so the recursion is at most 15 deep")
    r = rng_for(nm, "rec_fib")
    spec(nm, "rec_fib", [2], [128], [hexbuf(i32s([r.int_in(-4, 12) for _ in range(n)])), zerobuf(4 * n), s32(n)],
         "2x128 threads, n = 200; inputs in -4..12 (fib(12) makes 465 calls; negative n returns at once), "
         "which keeps the doubly recursive work small")
    r = rng_for(nm, "rec_gcd")
    a = [r.pick([r.u32(), r.int_in(1, 1000) * 12, r.int_in(0, 50)]) for _ in range(n)]
    b = [r.pick([r.u32(), r.int_in(1, 1000) * 18, r.int_in(0, 50)]) for _ in range(n)]
    a[10], b[10] = 2971215073, 1836311903  # consecutive Fibonacci numbers: the deepest 32-bit case (46 calls)
    a[11], b[11] = 0, 0
    spec(nm, "rec_gcd", [2], [128], [hexbuf(i32s(a)), hexbuf(i32s(b)), zerobuf(4 * n), s32(n)],
         "2x128 threads, n = 200; random, common-factor and small pairs, zeros, and the consecutive Fibonacci "
         "pair 2971215073, 1836311903 (recursion depth about 46, the most 32-bit inputs need)")
    r = rng_for(nm, "rec_tree_sum")
    count = 63
    spec(nm, "rec_tree_sum", [2], [128],
         [hexbuf(f32s(mixed(r, count, -4, 4, None))), hexbuf(i32s([r.int_in(0, 70) for _ in range(n)])),
          zerobuf(4 * n), s32(count), s32(n)],
         "2x128 threads, n = 200; a complete tree of count = 63 nodes (depth 6, at most 127 calls from the root); "
         "roots in 0..70, some past count (sum 0); nodes is read only at node < count")


# ---- reduce_shared.cu ------------------------------------------------------------------------------------------------

def reduce_shared():
    nm = "reduce_shared"
    n = 1900
    spec(nm, "reduce_sum_tree", [4], [256], [rndbuf(4 * n, 225), zerobuf(4 * 4), s32(n)],
         "4 CTAs of 256 (a power of two, sdata[256]), each adds 512 inputs: n = 1900 < 2048 so the last "
         "CTA's second loads fail i + blockDim < n; block_sums has one float per CTA; random bits (fixed order)")
    r = rng_for(nm, "reduce_sum_atomic")
    n = 3000
    spec(nm, "reduce_sum_atomic", [4], [256],
         [hexbuf(f32s([r.int_in(-64, 64) / 4.0 for _ in range(n)])), hexbuf(f32s([0.0]), True), s32(n)],
         "4 CTAs of exactly 256 threads (the unrolled loop assumes BLOCK = 256) with a grid-stride loop over "
         "n = 3000; inputs are multiples of 0.25 in [-16, 16], so all sums are exact and the float atomicAdd "
         "of the CTA sums gives the same total in any order")
    r = rng_for(nm, "reduce_max_tree")
    n = 1000
    spec(nm, "reduce_max_tree", [4], [256],
         [hexbuf(i32s(ints_with(r, n, -0x80000000, 0x7FFFFFFF, [-0x80000000, -1, 0]))), hexbuf(i32s([-0x80000000]), True), s32(n)],
         "4 CTAs of 256 (a power of two), n = 1000; out starts at INT_MIN; integer atomicMax is order independent")


# ---- reduce_shfl.cu ---------------------------------------------------------------------------------------------------

def reduce_shfl():
    nm = "reduce_shfl"
    r = rng_for(nm, "block_sum_shfl")
    n = 480
    spec(nm, "block_sum_shfl", [2], [256],
         [hexbuf(f32s([r.int_in(-64, 64) / 4.0 for _ in range(n)])), hexbuf(f32s([0.0]), True), s32(n)],
         "2 CTAs of 256 (whole warps for the full-mask shuffles), n = 480; inputs are multiples of 0.25 in "
         "[-16, 16], so every sum is exact and the float atomicAdd total is order independent")
    r = rng_for(nm, "count_positive")
    spec(nm, "count_positive", G1, B1, [hexbuf(f32s(mixed(r, N1, -1, 1))), hexbuf(i32s([0]), True), s32(N1)],
         ONE_D + "; values in [-1, 1] with specials (NaN, -0 are not positive); integer atomics")
    r = rng_for(nm, "warp_max_abs")
    spec(nm, "warp_max_abs", G1, B1, [hexbuf(f32s(mixed(r, N1, -50, 50))), zerobuf(4 * 16), s32(N1)],
         ONE_D + "; warp_out has one float per warp of the grid (512 / 32 = 16): lane 0 of every warp "
         "writes, also the last, partly out-of-range warp")


# ---- saxpy.cu ------------------------------------------------------------------------------------------------------------

def saxpy():
    nm = "saxpy"
    n = N1
    r = rng_for(nm, "saxpy")
    spec(nm, "saxpy", G1, B1, [s32(n), f32(2.5), hexbuf(f32s(mixed(r, n, -10, 10))), hexbuf(f32s(mixed(r, n, -10, 10)), True)],
         ONE_D + "; a = 2.5; y is read and written")
    r = rng_for(nm, "axpby")
    spec(nm, "axpby", G1, B1,
         [s32(n), f32(1.5), hexbuf(f32s(mixed(r, n, -10, 10))), f32(-0.75), hexbuf(f32s(mixed(r, n, -10, 10))), zerobuf(4 * n)],
         ONE_D + "; a = 1.5, b = -0.75")
    r = rng_for(nm, "scale_inplace")
    spec(nm, "scale_inplace", G1, B1, [hexbuf(f32s(mixed(r, 512, -10, 10)), True), f32(-3.0), u32(n)],
         "1-D launch of 4x128 threads, n = 500 (unsigned): v holds 512 floats, the last 12 stay as they were; s = -3")
    r = rng_for(nm, "saxpy_grid_stride")
    n = 3000
    spec(nm, "saxpy_grid_stride", [2], [256],
         [s64(n), f32(0.5), hexbuf(f32s(mixed(r, n, -10, 10))), hexbuf(f32s(mixed(r, n, -10, 10)), True)],
         "2x256 threads with a 64-bit grid-stride loop over n = 3000 (6 rounds, the last partial); y read and written")
    r = rng_for(nm, "daxpy")
    n = N1
    spec(nm, "daxpy", G1, B1,
         [s32(n), f64(0.3), hexbuf(f64s(mixed(r, n, -10, 10, F64_SPECIALS))), hexbuf(f64s(mixed(r, n, -10, 10, F64_SPECIALS)), True)],
         ONE_D + "; a = 0.3; y is read and written")


# ---- scan_block.cu ---------------------------------------------------------------------------------------------------------

def scan_block():
    nm = "scan_block"
    r = rng_for(nm, "scan_inclusive_hs")
    n = 500
    spec(nm, "scan_inclusive_hs", [2], [256], [hexbuf(f32s(mixed(r, n, -4, 4, None))), zerobuf(4 * n), s32(n)],
         "2 CTAs of 256 (at most SCAN_BLOCK = 512), n = 500: each CTA scans its own 256 elements; finite values")
    r = rng_for(nm, "scan_exclusive_blelloch")
    n = 1000
    spec(nm, "scan_exclusive_blelloch", [2], [256],
         [hexbuf(i32s([r.int_in(0, 99) for _ in range(n)])), zerobuf(4 * n), zerobuf(4 * 2), s32(n)],
         "2 CTAs of 256 (a power of two, m = 512 <= 2 * SCAN_BLOCK), each scanning 512 elements, n = 1000; "
         "block_totals has one int per CTA (non-null)")
    r = rng_for(nm, "scan_add_offsets")
    n = 1000
    spec(nm, "scan_add_offsets", [2], [256],
         [hexbuf(i32s([r.int_in(0, 9999) for _ in range(n)]), True), hexbuf(i32s([0, 12345])), s32(n)],
         "2 CTAs of 256, each adding its offset to 512 elements (gid and gid + blockDim), n = 1000; "
         "block_offsets has one int per CTA")
    r = rng_for(nm, "scan_warp_shfl")
    spec(nm, "scan_warp_shfl", G1, B1, [hexbuf(f32s(mixed(r, N1, -4, 4, None))), zerobuf(4 * N1), zerobuf(4 * 16), s32(N1)],
         ONE_D + "; warp_totals has one float per warp of the grid (16): lane 31 of every warp writes")


# ---- sgemm_tiled.cu -----------------------------------------------------------------------------------------------------------

def sgemm_tiled():
    nm = "sgemm_tiled"
    M, N, K = 40, 35, 50
    r = rng_for(nm, "sgemm_tiled")
    spec(nm, "sgemm_tiled", [3, 3], [16, 16],
         [s32(M), s32(N), s32(K), f32(1.5), hexbuf(f32s(mixed(r, M * K, -1, 1, None))), hexbuf(f32s(mixed(r, K * N, -1, 1, None))),
          f32(-0.5), hexbuf(f32s(mixed(r, M * N, -1, 1, None)), True)],
         "16x16 CTAs exactly (TILE = 16), grid 3x3 covers 48x48 for M = 40, N = 35, K = 50 (partial tiles in "
         "every dimension); A is M*K, B K*N, C M*N (read and written); alpha 1.5, beta -0.5")
    M, N, K = 30, 45, 20
    r = rng_for(nm, "sgemm_naive")
    spec(nm, "sgemm_naive", [3, 2], [16, 16],
         [s32(M), s32(N), s32(K), hexbuf(f32s(mixed(r, M * K, -1, 1, None))), hexbuf(f32s(mixed(r, K * N, -1, 1, None))),
          zerobuf(4 * M * N)],
         "2-D: 16x16 CTAs, grid 3x2 covers 48 columns x 32 rows for M = 30, N = 45, K = 20; A is M*K, B K*N, C M*N")


# ---- softmax.cu ----------------------------------------------------------------------------------------------------------------

def softmax():
    nm = "softmax"
    r = rng_for(nm, "softmax_rows")
    rows, cols = 8, 300
    x = mixed(r, rows * cols, -10, 10, specials=None)
    x[5] = -INF
    x[cols + 7] = 80.0
    spec(nm, "softmax_rows", [rows], [128], [hexbuf(f32s(x)), zerobuf(4 * rows * cols), s32(cols)],
         "one CTA per row: 8 rows of 300 floats, 128 threads (a power of two, <= SM_THREADS = 256), so the "
         "strided loops run 2 or 3 times; values in [-10, 10] with one -inf and one 80")
    r = rng_for(nm, "cross_entropy")
    rows, cols = 200, 10
    spec(nm, "cross_entropy", [2], [128],
         [hexbuf(f32s(mixed(r, rows * cols, -5, 5, None))), hexbuf(i32s([r.below(cols) for _ in range(rows)])),
          zerobuf(4 * rows), s32(rows), s32(cols)],
         "2x128 threads, rows = 200 (56 threads return), cols = 10; every label in 0..9")


# ---- switch_cases.cu ------------------------------------------------------------------------------------------------------------

def switch_cases():
    nm = "switch_cases"
    n = N1
    r = rng_for(nm, "dense_switch")
    ops = [r.int_in(-2, 11) for _ in range(n)]
    ops[0], ops[1] = -0x80000000, 0x7FFFFFFF
    spec(nm, "dense_switch", G1, B1,
         [hexbuf(i32s(ops)), hexbuf(f32s(mixed(r, n, -10, 10))), hexbuf(f32s(mixed(r, n, -10, 10, every=13))), zerobuf(4 * n), s32(n)],
         ONE_D + "; op in -2..11 (every case and the default on both sides of the jump table) plus extremes")
    r = rng_for(nm, "sparse_switch")
    cases = [1, 17, 100, 1000, 4096, 65535, -7, 0, 2, 16, 18, 999, 4095, 65536, -6, -8]
    codes = [r.pick(cases) if r.below(2) else r.int_in(-0x80000000, 0x7FFFFFFF) for _ in range(n)]
    spec(nm, "sparse_switch", G1, B1, [hexbuf(i32s(codes)), zerobuf(4 * n), s32(n)],
         ONE_D + "; half the codes are case values or their neighbours, half random")
    r = rng_for(nm, "switch_fallthrough")
    n, length = 200, 16
    alphabet = b"aeiouy bcdxz\0"
    tags = bytes(r.pick(alphabet[:12]) if r.below(24) else 0 for _ in range(n * length))
    spec(nm, "switch_fallthrough", [2], [128], [hexbuf(tags), zerobuf(4 * n), s32(length), s32(n)],
         "2x128 threads, n = 200, len = 16 tag bytes per thread (tags holds n * len): vowels, 'y', spaces, "
         "other letters and occasional NUL (ends that thread's loop early)")


# ---- sync_fence.cu ---------------------------------------------------------------------------------------------------------------

def sync_fence():
    nm = "sync_fence"
    r = rng_for(nm, "sum_last_block")
    n = 1000
    spec(nm, "sum_last_block", [4], [256],
         [hexbuf(f32s(mixed(r, n, -10, 10, None))), zerobuf(4 * 4), zerobuf(4), s32(n)],
         "4 CTAs of 256 (a power of two, s[256]), n = 1000; partial has one float per CTA, result one float. "
         "Which CTA is last depends on the order the CTAs finish (atomicInc ticket on the __device__ g_ticket, "
         "zero in a fresh module), but the last one adds partial[0..3] in index order, so result is the same")
    r = rng_for(nm, "warp_sync_shift")
    spec(nm, "warp_sync_shift", G1, B1, [hexbuf(i32s(ints_with(r, N1, -1000, 1000, I32_SPECIALS))), zerobuf(4 * N1), s32(N1)],
         ONE_D + "; blockDim 128 <= 256 (buf[256]); whole warps, so every __syncwarp mask names live lanes")
    r = rng_for(nm, "flag_handoff")
    spec(nm, "flag_handoff", [1], [256], [hexbuf(i32s([r.int_in(-1000, 1000) for _ in range(256)]), True), s32(200)],
         "ONE CTA of 256, n = 200: data[blockIdx.x] is read by thread 0 of each CTA while CTA 0 adds to "
         "data[0..blockDim), so with more than one CTA the result would depend on the CTA order; one CTA "
         "keeps it deterministic. data holds 256 ints, the last 56 stay as they were")


# ---- transpose.cu ------------------------------------------------------------------------------------------------------------------

def transpose():
    nm = "transpose"
    w, h = 60, 40
    spec(nm, "transpose_naive", [2, 5], [32, 8], [zerobuf(4 * w * h), rndbuf(4 * w * h, 226), s32(w), s32(h)],
         "2-D: 32x8 CTAs, grid 2x5 covers 64x40 threads for width 60, height 40; in and out hold w*h floats")
    spec(nm, "transpose_tiled_conflicts", [2, 2], [32, 8], [zerobuf(4 * w * h), rndbuf(4 * w * h, 227), s32(w), s32(h)],
         "CTAs of exactly TILE_DIM x BLOCK_ROWS = 32x8 threads, each moving a 32x32 tile; grid 2x2 covers "
         "64x64 for width 60, height 40 (partial tiles both ways); in and out hold w*h floats")
    w, h = 50, 70
    spec(nm, "transpose_padded", [2, 3], [32, 8], [zerobuf(4 * w * h), rndbuf(4 * w * h, 228), s32(w), s32(h)],
         "CTAs of exactly 32x8 threads, 32x32 tiles; grid 2x3 covers 64x96 for width 50, height 70 (partial "
         "tiles both ways); in and out hold w*h floats")


# ---- vector_loads.cu ---------------------------------------------------------------------------------------------------------------

def vector_loads():
    nm = "vector_loads"
    n = N1
    spec(nm, "copy_float4", G1, B1, [rndbuf(16 * n, 229), zerobuf(16 * n), s32(n)],
         ONE_D + " float4s (16-byte aligned: buffers are 256-byte aligned); random bits")
    r = rng_for(nm, "scale_float4_tail")
    n = 1003
    spec(nm, "scale_float4_tail", [2], [128], [hexbuf(f32s(mixed(r, n, -10, 10))), zerobuf(4 * n), f32(0.5), s32(n)],
         "2x128 threads, n = 1003: 250 float4s (threads 250..255 idle) and a scalar tail of 3 (threads 0..2)")
    n = N1
    spec(nm, "int2_swap_add", G1, B1, [rndbuf(8 * n, 230), zerobuf(8 * n), s32(n)],
         ONE_D + " int2s; random values (the +-1 wraps at the extremes)")
    r = rng_for(nm, "complex_mul_float2")
    spec(nm, "complex_mul_float2", G1, B1,
         [hexbuf(f32s(mixed(r, 2 * N1, -10, 10))), hexbuf(f32s(mixed(r, 2 * N1, -10, 10))), zerobuf(8 * N1), s32(N1)],
         ONE_D + " float2s; values in [-10, 10] with specials")
    spec(nm, "rgba_to_gray", G1, B1, [rndbuf(4 * N1, 231), zerobuf(N1), s32(N1)],
         ONE_D + " uchar4 pixels; random bytes")
    spec(nm, "int4_sum_lanes", G1, B1, [rndbuf(16 * N1, 232), zerobuf(4 * N1), s32(N1)],
         ONE_D + " int4s; random values")


# ---- warp_vote.cu ------------------------------------------------------------------------------------------------------------------

def warp_vote():
    nm = "warp_vote"
    n = N1
    r = rng_for(nm, "compact_positive")
    spec(nm, "compact_positive", G1, B1, [hexbuf(f32s(mixed(r, n, -1, 1))), zerobuf(4 * n), hexbuf(i32s([0]), True), s32(n)],
         ONE_D + "; out has room for all n values. ORDER-DEPENDENT: each warp's base comes from an atomicAdd, "
         "so where a warp's values land depends on the order the warps reach it (the count does not)")
    r = rng_for(nm, "warp_flags")
    vals = []
    for w in range(16):  # per warp: all positive, one negative, one zero, mixed
        kind = w % 4
        for lane in range(32):
            v = r.int_in(1, 1000)
            if kind == 1 and lane == 7:
                v = -5
            elif kind == 2 and lane == 30:
                v = 0
            elif kind == 3:
                v = r.int_in(-3, 3)
            vals.append(v)
    spec(nm, "warp_flags", G1, B1, [hexbuf(i32s(vals[:n])), zerobuf(4 * 16), zerobuf(4 * 16), s32(n)],
         ONE_D + "; any_out and all_out have one int per warp of the grid (16); the warps see all-positive, "
         "one-negative, one-zero and mixed inputs, and the last warp has lanes past n (v = 0)")
    spec(nm, "divergent_activemask", G1, B1, [rndbuf(4 * n, 233), zerobuf(4 * n), zerobuf(4 * n), s32(n)],
         ONE_D + "; random keys split each warp by parity. __activemask in divergent code reports the "
         "lanes the implementation runs together: compare the interpreters with that in mind")
    r = rng_for(nm, "aggregated_increment")
    spec(nm, "aggregated_increment", G1, B1,
         [hexbuf(i32s([0]), True), hexbuf(i32s([r.below(2) * r.int_in(1, 9) for _ in range(n)])), zerobuf(4 * n), s32(n)],
         ONE_D + "; about half the flags are set; slot keeps 0 where the flag is clear. ORDER-DEPENDENT: each "
         "warp's base comes from an atomicAdd, so slot numbers depend on the order the warps reach it "
         "(the final counter does not)")


ALL = [activations, atomic_cas, bf16_ops, bitops, casts, conditions, constant_mem, double_math, dyn_shared,
       early_exit, fast_math, half_ops, histogram, int64_math, int_division, layernorm, ldg_volatile,
       local_array, noinline_calls, printf_debug, recursion, reduce_shared, reduce_shfl, saxpy, scan_block,
       sgemm_tiled, softmax, switch_cases, sync_fence, transpose, vector_loads, warp_vote]


def main():
    for f in ALL:
        f()
    names = set()
    for name, kernel, s in SPECS:
        assert (name, kernel) not in names, (name, kernel)
        names.add((name, kernel))
        # One line per parameter keeps diffs readable.
        head = {k: v for k, v in s.items() if k != "params"}
        text = json.dumps(head)[:-1] + ', "params": [\n'
        text += ",\n".join("  " + json.dumps(p) for p in s["params"]) + "\n]}\n"
        with open(os.path.join(HERE, f"{name}.{kernel}.json"), "w") as fh:
            fh.write(text)
    print(f"{len(SPECS)} specs written")


if __name__ == "__main__":
    main()
