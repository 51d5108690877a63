#!/usr/bin/env python3
"""Writes the launch specs of the library corpus: one `NAME.KERNEL.json` per
`extern "C"` wrapper kernel of `corpus/library/NAME.cu` (CUB block and warp
algorithms, cooperative groups, cuRAND's device API), in the launch-spec
format of scripts/README.md ("Launch specs").

    corpus/library/launch/generate.py          # rewrites every spec here

Inputs are `random` fills (SplitMix64 of a per-spec seed, derived from the
spec's name), so the files are the same on every run. Launches are small
(whole warps and blocks, the block size each wrapper is written for) and
every buffer holds exactly what the kernel's index math reaches.

When `target/library-corpus/sm_90/NAME.ptx` exists (scripts/library-corpus.sh
has run), each spec is also checked against its kernel's PTX parameter list
with the checks of scripts/check-launch-specs.py, and `extern "C"` kernels
without a spec are listed. Standard library only.
"""

import importlib.util
import json
import os
import re
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
PTX_DIR = os.path.join(ROOT, "target", "library-corpus", "sm_90")

# Element sizes of the C types the wrappers use.
SIZE = {"i8": 1, "u8": 1, "i16": 2, "u16": 2, "i32": 4, "u32": 4, "f32": 4,
        "i64": 8, "u64": 8, "f64": 8}

SPECS = {}


def seed_of(name):
    """A stable per-spec seed (CRC-32 of its name)."""
    return zlib.crc32(name.encode())


def rand(nbytes, name, k=0):
    return {"kind": "buffer", "bytes": nbytes, "fill": "random", "seed": seed_of(name) + k, "output": False}


def nonneg_i32(count, name):
    """`count` random int32s in [0, 2^31): a `%` of a negative signed sample
    is negative in C++, and a kernel that indexes bins with it reads out of
    bounds (undefined; the SASS interpreter reports the fault). The words are
    a SplitMix64 stream of the spec's seed with bit 31 cleared, as hex."""
    state, words = seed_of(name), []
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        z ^= z >> 31
        words.append((z & 0x7FFFFFFF).to_bytes(4, "little").hex())
    return {"kind": "buffer", "bytes": 4 * count, "fill": "hex", "hex": "".join(words), "output": False}


def zero(nbytes, output=True):
    return {"kind": "buffer", "bytes": nbytes, "fill": "zero", "output": output}


def rand_out(nbytes, name, k=0):
    b = rand(nbytes, name, k)
    b["output"] = True
    return b


def s32(v):
    return {"kind": "s32", "value": f"0x{v & 0xFFFFFFFF:08x}"}


def u64(v):
    return {"kind": "u64", "value": f"0x{v:016x}"}


def f32(bits):
    return {"kind": "f32", "value": f"0x{bits:08x}"}


def f64(bits):
    return {"kind": "f64", "value": f"0x{bits:016x}"}


def spec(file, kernel, grid, block, params, note):
    key = f"{file}.{kernel}"
    assert key not in SPECS, key
    grid = list(grid) + [1] * (3 - len(grid))
    block = list(block) + [1] * (3 - len(block))
    SPECS[key] = {"kernel": kernel, "grid": grid, "block": block, "shared_bytes": 0, "note": note, "params": params}


def mangled_spec(file, key, sm, kernel, grid, block, shared_bytes, params, note):
    """A spec of a kernel with a mangled name, which carries the SM (Thrust's
    and CUB's device kernels live in `..._SM_900` namespaces): the file is
    `file.key_smNN.json`, `"sm"` says which SM's PTX defines the kernel (the
    scripts run it there only)."""
    name = f"{file}.{key}_sm{sm}"
    assert name not in SPECS, name
    SPECS[name] = {"kernel": kernel, "sm": sm, "grid": grid, "block": block, "shared_bytes": shared_bytes, "note": note, "params": params}


def ptx_kernel(file, sm, pattern):
    """The one entry of `target/library-corpus/sm_NN/file.ptx` whose name
    matches `pattern` (None when the PTX is not built)."""
    path = os.path.join(ROOT, "target", "library-corpus", f"sm_{sm}", file + ".ptx")
    if not os.path.exists(path):
        return None
    with open(path) as fh:
        names = [n for n in re.findall(r"\.entry (\w+)\(", fh.read()) if re.search(pattern, n)]
    assert len(names) == 1, (file, sm, pattern, names)
    return names[0]


def copy_kernel(file, kernel, grid, threads, in_bytes, out_bytes, note):
    """A kernel (const T* in, T* out) with a random input and a zero output."""
    spec(file, kernel, [grid], [threads], [rand(in_bytes, f"{file}.{kernel}"), zero(out_bytes)], note)


# ---- CUB block algorithms ---------------------------------------------------

def cub_block_reduce():
    f = "cub_block_reduce"
    shapes = [("sum_i32_128", "i32", 128, 1), ("sum_u32_256x4", "u32", 256, 4), ("sum_f32_128", "f32", 128, 1),
              ("sum_f64_64x2", "f64", 64, 2), ("sum_i64_96", "i64", 96, 1), ("max_i32_128x4", "i32", 128, 4),
              ("min_f32_256", "f32", 256, 1), ("xor_u64_128x2", "u64", 128, 2)]
    for shape, ty, threads, items in shapes:
        for alg in ("raking_commutative", "raking", "warp_reductions"):
            copy_kernel(f, f"block_reduce_{shape}_{alg}", 4, threads, 4 * threads * items * SIZE[ty], 4 * SIZE[ty],
                        f"4 blocks of {threads} threads, {items} item(s) each; one result per block; random bit patterns "
                        "(integer sums wrap, float inputs include NaN and infinities)")
    for kernel, ty in (("block_reduce_partial_sum_i32_128", "i32"), ("block_reduce_partial_sum_f32_128_raking", "f32")):
        spec(f, kernel, [4], [128], [rand(4 * 128 * 4, f"{f}.{kernel}"), zero(4 * 4), s32(100)],
             "4 blocks of 128 threads; valid = 100, so the last 28 threads of each block do not load or contribute")
    spec(f, "block_reduce_sum_i32_16x8_2d", [4], [16, 8], [rand(4 * 128 * 4, f"{f}.2d"), zero(4 * 4)],
         "4 blocks of 16x8 threads reduced as one 128-thread block; one sum per block")


def cub_block_scan():
    f = "cub_block_scan"
    shapes = [("incl_sum_i32_128", "i32", 128, 1), ("excl_sum_i32_128x4", "i32", 128, 4),
              ("incl_sum_f32_256x2", "f32", 256, 2), ("excl_sum_u64_64", "u64", 64, 1),
              ("incl_sum_f64_128", "f64", 128, 1), ("incl_max_i32_128x3", "i32", 128, 3),
              ("excl_xor_u32_96", "u32", 96, 1)]
    for shape, ty, threads, items in shapes:
        for alg in ("raking", "memoize", "warp_scans"):
            n = 2 * threads * items * SIZE[ty]
            copy_kernel(f, f"block_scan_{shape}_{alg}", 2, threads, n, n,
                        f"2 blocks of {threads} threads, {items} item(s) each in a blocked arrangement; every element "
                        "scanned; random bit patterns")
    k = "block_scan_excl_sum_aggregate_i32_256"
    spec(f, k, [2], [256], [rand(2 * 256 * 4, f"{f}.{k}"), zero(2 * 256 * 4), zero(2 * 4)],
         "2 blocks of 256 threads; per-element exclusive sums and one block total each")
    k = "block_scan_prefix_callback_i32_128"
    spec(f, k, [2], [128], [rand(2 * 3 * 128 * 4, f"{f}.{k}"), zero(2 * 3 * 128 * 4), s32(3)],
         "2 blocks of 128 threads, each scanning 3 consecutive tiles with a running prefix carried by the callback")


def cub_block_radix_sort():
    f = "cub_block_radix_sort"
    keys = [("u32_128x4", "u32", 128, 4), ("u32_128x4_desc", "u32", 128, 4), ("u32_128x4_striped", "u32", 128, 4),
            ("u32_128x4_desc_striped", "u32", 128, 4), ("i32_256x2", "i32", 256, 2),
            ("i32_64x8_radix6", "i32", 64, 8), ("f32_128x4", "f32", 128, 4), ("f32_128x4_desc", "f32", 128, 4),
            ("f64_64x4", "f64", 64, 4), ("u64_128x2", "u64", 128, 2), ("i64_128x2_desc", "i64", 128, 2),
            ("u16_128x8", "u16", 128, 8), ("u8_96x4_radix5", "u8", 96, 4), ("i16_64x4_radix2", "i16", 64, 4),
            ("bits_8_20_u32_128x4", "u32", 128, 4)]
    for shape, ty, threads, items in keys:
        n = 2 * threads * items * SIZE[ty]
        copy_kernel(f, f"block_radix_sort_{shape}", 2, threads, n, n,
                    f"2 blocks of {threads} threads x {items} keys; each block sorts its own tile; random keys "
                    "(floats include NaN bit patterns, which sort by their bits)")
    pairs = [("u32_i32_128x4", "u32", "i32", 128, 4), ("f32_u32_128x2_desc", "f32", "u32", 128, 2),
             ("u64_f64_64x4", "u64", "f64", 64, 4), ("i32_u8_256x2", "i32", "u8", 256, 2)]
    for shape, kt, vt, threads, items in pairs:
        k = f"block_radix_sort_pairs_{shape}"
        n = 2 * threads * items
        spec(f, k, [2], [threads], [rand(n * SIZE[kt], f"{f}.{k}"), rand(n * SIZE[vt], f"{f}.{k}", 1),
                                    zero(n * SIZE[kt]), zero(n * SIZE[vt])],
             f"2 blocks of {threads} threads x {items} key-value pairs; each block sorts its own tile")


def cub_block_histogram():
    f = "cub_block_histogram"
    shapes = [("u8_256bins_128x4", "u8", 128, 4, 256), ("u8_64bins_256x2", "u8", 256, 2, 64),
              ("u16_512bins_128x8", "u16", 128, 8, 512), ("u32_32bins_64x4", "u32", 64, 4, 32),
              ("i32_100bins_96x1", "i32", 96, 1, 100)]
    for shape, ty, threads, items, bins in shapes:
        for alg in ("sort", "atomic"):
            k = f"block_histogram_{shape}_{alg}"
            note = f"2 blocks of {threads} threads x {items} samples, reduced mod {bins} by the kernel; {bins} counters per block"
            if ty == "i32":
                # Signed samples must be nonnegative (see nonneg_i32).
                spec(f, k, [2], [threads], [nonneg_i32(2 * threads * items, f"{f}.{k}"), zero(2 * bins * 4)],
                     note + "; samples in [0, 2^31)")
            else:
                copy_kernel(f, k, 2, threads, 2 * threads * items * SIZE[ty], 2 * bins * 4, note)
    k = "block_histogram_composite_u8_256bins_128x2"
    copy_kernel(f, k, 2, 128, 2 * 2 * 256, 2 * 256 * 4,
                "2 blocks of 128 threads, each binning two tiles of 256 byte samples into 256 counters")


def cub_block_load_store():
    f = "cub_block_load_store"
    shapes = [("direct_i32_128x4", "i32", 128, 4), ("striped_i32_128x4", "i32", 128, 4),
              ("vectorize_i32_128x4", "i32", 128, 4), ("transpose_i32_128x4", "i32", 128, 4),
              ("warp_transpose_i32_128x4", "i32", 128, 4), ("timesliced_i32_128x4", "i32", 128, 4),
              ("vectorize_f32_256x4", "f32", 256, 4), ("transpose_f64_64x3", "f64", 64, 3),
              ("vectorize_u8_128x16", "u8", 128, 16), ("warp_transpose_u16_64x8", "u16", 64, 8),
              ("striped_u64_96x2", "u64", 96, 2), ("vectorize_f64_128x2", "f64", 128, 2)]
    for shape, ty, threads, items in shapes:
        n = 2 * threads * items * SIZE[ty]
        copy_kernel(f, f"block_load_store_{shape}", 2, threads, n, n,
                    f"2 blocks of {threads} threads x {items} items; every element copied (plus its item index)")
    guarded = [("direct_i32_128x4", "i32", 128, 4), ("striped_f32_128x4", "f32", 128, 4),
               ("transpose_i32_128x4", "i32", 128, 4), ("warp_transpose_u64_64x2", "u64", 64, 2)]
    for shape, ty, threads, items in guarded:
        k = f"block_load_store_guarded_{shape}"
        n = 2 * threads * items * SIZE[ty]
        valid = threads * items - 37
        spec(f, k, [2], [threads], [rand(n, f"{f}.{k}"), zero(n), s32(valid)],
             f"2 blocks of {threads} threads x {items} items; valid = {valid}: the last 37 elements of each tile are "
             "neither read nor written (they stay zero)")
    copy_kernel(f, "block_exchange_roundtrip_i32_128x4", 2, 128, 2 * 512 * 4, 2 * 512 * 4,
                "2 blocks of 128 threads x 4 items through blocked/striped/warp-striped exchanges")
    copy_kernel(f, "block_exchange_scatter_reverse_u32_64x4", 2, 64, 2 * 256 * 4, 2 * 256 * 4,
                "2 blocks of 64 threads x 4 items; each tile comes out reversed")


# ---- CUB warp algorithms ----------------------------------------------------

def cub_warp_reduce():
    f = "cub_warp_reduce"
    for base, ty in (("sum_i32", "i32"), ("sum_f32", "f32"), ("sum_f64", "f64"), ("max_u32", "u32")):
        for width in (32, 16, 8, 4):
            k = f"warp_reduce_{base}_w{width}"
            copy_kernel(f, k, 2, 128, 2 * 128 * SIZE[ty], 2 * 128 // width * SIZE[ty],
                        f"2 blocks of 128 threads in logical warps of {width}; one result per logical warp")
    singles = [("sum_u64_w32", "u64", 64, 32), ("min_i64_w32", "i64", 64, 32), ("min_f32_w32", "f32", 128, 32),
               ("max_f64_w16", "f64", 64, 16), ("or_u32_w32", "u32", 128, 32), ("and_u32_w8", "u32", 128, 8),
               ("mul_i32_w32", "i32", 64, 32), ("sum_i16_w32", "i16", 64, 32), ("sum_i8_w16", "i8", 64, 16)]
    for base, ty, threads, width in singles:
        k = f"warp_reduce_{base}"
        copy_kernel(f, k, 2, threads, 2 * threads * SIZE[ty], 2 * threads // width * SIZE[ty],
                    f"2 blocks of {threads} threads in logical warps of {width}; one result per logical warp")
    k = "warp_reduce_partial_sum_i32_w32"
    spec(f, k, [2], [128], [rand(2 * 128 * 4, f"{f}.{k}"), zero(2 * 4 * 4), s32(20)],
         "2 blocks of 128 threads; valid = 20: lanes 20..31 of each warp do not load or contribute")
    k = "warp_reduce_head_segmented_sum_i32_w32"
    spec(f, k, [2], [128], [rand(2 * 128 * 4, f"{f}.{k}"), rand(2 * 128 * 4, f"{f}.{k}", 1), zero(2 * 128 * 4)],
         "2 blocks of 128 threads; random flags (bit 0) start segments; every thread writes its result")
    k = "warp_reduce_tail_segmented_max_f32_w16"
    spec(f, k, [2], [128], [rand(2 * 128 * 4, f"{f}.{k}"), rand(2 * 128 * 4, f"{f}.{k}", 1), zero(2 * 128 * 4)],
         "2 blocks of 128 threads in logical warps of 16; random flags (bit 0) end segments")


def cub_warp_scan():
    f = "cub_warp_scan"
    for base, ty in (("incl_sum_i32", "i32"), ("excl_sum_i32", "i32"), ("incl_sum_f32", "f32"),
                     ("excl_sum_f64", "f64"), ("incl_max_i32", "i32")):
        for width in (32, 16, 8):
            k = f"warp_scan_{base}_w{width}"
            copy_kernel(f, k, 2, 128, 2 * 128 * SIZE[ty], 2 * 128 * SIZE[ty],
                        f"2 blocks of 128 threads in logical warps of {width}; every element scanned")
    for base, ty, threads in (("incl_sum_u64_w32", "u64", 64), ("excl_min_u32_w32", "u32", 128),
                              ("excl_xor_u32_w4", "u32", 128), ("incl_min_f32_w32", "f32", 128)):
        k = f"warp_scan_{base}"
        copy_kernel(f, k, 2, threads, 2 * threads * SIZE[ty], 2 * threads * SIZE[ty],
                    f"2 blocks of {threads} threads; every element scanned")
    k = "warp_scan_both_max_i32_w32"
    spec(f, k, [2], [128], [rand(2 * 128 * 4, f"{f}.{k}"), zero(2 * 2 * 128 * 4), zero(2 * 4 * 4)],
         "2 blocks of 128 threads; out holds inclusive then exclusive results (2n), totals one per warp")
    k = "warp_scan_broadcast_f64_w16"
    spec(f, k, [2], [128], [rand(2 * 128 * 8, f"{f}.{k}"), zero(2 * 128 * 8), s32(5)],
         "2 blocks of 128 threads in logical warps of 16; lane 5's value is broadcast")


def cub_warp_exchange_sort():
    f = "cub_warp_exchange_sort"
    for shape, ty, threads, items in (("direct_i32_w32x4", "i32", 128, 4), ("striped_i32_w32x4", "i32", 128, 4),
                                      ("vectorize_f32_w32x4", "f32", 128, 4), ("transpose_i32_w16x8", "i32", 128, 8),
                                      ("transpose_f64_w8x2", "f64", 64, 2)):
        n = 2 * threads * items * SIZE[ty]
        copy_kernel(f, f"warp_load_store_{shape}", 2, threads, n, n,
                    f"2 blocks of {threads} threads x {items} items; every element copied (scaled)")
    copy_kernel(f, "warp_exchange_roundtrip_u32_w32x4", 2, 128, 2 * 512 * 4, 2 * 512 * 4,
                "2 blocks of 128 threads x 4 items; blocked -> striped -> blocked per warp")
    for shape, ty, threads, items in (("i32_w32x4", "i32", 128, 4), ("abs_i32_w16x2", "i32", 64, 2),
                                      ("f32_w8x4", "f32", 64, 4), ("u64_w32x2", "u64", 64, 2)):
        n = 2 * threads * items * SIZE[ty]
        copy_kernel(f, f"warp_merge_sort_{shape}", 2, threads, n, n,
                    f"2 blocks of {threads} threads x {items} keys; each logical warp sorts its own segment")
    k = "block_merge_sort_guarded_i32_128x4"
    spec(f, k, [2], [128], [rand(2 * 512 * 4, f"{f}.{k}"), zero(2 * 512 * 4), s32(450)],
         "2 blocks of 128 threads x 4 keys; valid = 450 keys of each 512-key tile, the rest padded with INT_MAX")
    k = "block_merge_sort_pairs_f32_u32_64x4"
    spec(f, k, [2], [64], [rand(2 * 256 * 4, f"{f}.{k}"), rand(2 * 256 * 4, f"{f}.{k}", 1),
                           zero(2 * 256 * 4), zero(2 * 256 * 4)],
         "2 blocks of 64 threads x 4 pairs; stable sort by float key (random bits: NaN keys compare false)")


# ---- cooperative groups -----------------------------------------------------

def cg_tiles():
    f = "cg_tiles"
    per_thread = [("cg_tile32_rotate_i32", "i32", "i32"), ("cg_tile16_rotate_f32", "f32", "f32"),
                  ("cg_tile8_rotate_f64", "f64", "f64"), ("cg_tile4_rotate_u64", "u64", "u64"),
                  ("cg_tile2_rotate_i16", "i16", "i16"), ("cg_tile32_shfl_up_scan_i32", "i32", "i32"),
                  ("cg_tile8_shfl_up_scan_f32", "f32", "f32"), ("cg_tile32_shfl_down_sum_f64", "f64", "f64"),
                  ("cg_tile16_shfl_down_sum_i64", "i64", "i64"), ("cg_tile32_shfl_xor_max_f32", "f32", "f32"),
                  ("cg_tile4_shfl_xor_max_f32", "f32", "f32"), ("cg_tile32_vote", "i32", "u32"),
                  ("cg_tile8_vote", "i32", "u32"), ("cg_tile32_match", "i32", "u32"),
                  ("cg_tile16_match_any_u64", "u64", "u32"), ("cg_tile_of_tile_exchange", "i32", "i32"),
                  ("cg_block_reverse", "f32", "f32")]
    for k, tin, tout in per_thread:
        copy_kernel(f, k, 2, 128, 2 * 128 * SIZE[tin], 2 * 128 * SIZE[tout],
                    "2 blocks of 128 threads (whole warps and tiles); one result per thread")
    spec(f, "cg_tile8_ranks", [2], [128], [zero(2 * 128 * 4)],
         "2 blocks of 128 threads; each writes its packed tile and block ranks")
    spec(f, "cg_dynamic_partition_ranks", [2], [128], [zero(2 * 128 * 4), s32(8)],
         "2 blocks of 128 threads partitioned at run time into groups of 8")


def cg_reduce_scan():
    f = "cg_reduce_scan"
    kernels = [("plus_i32_t32", "i32"), ("plus_i32_t16", "i32"), ("plus_i32_t8", "i32"), ("plus_i32_t4", "i32"),
               ("plus_u32_t32", "u32"), ("plus_f32_t32", "f32"), ("plus_f64_t16", "f64"), ("plus_i64_t32", "i64"),
               ("less_i32_t32", "i32"), ("less_u32_t8", "u32"), ("greater_i32_t32", "i32"),
               ("greater_f32_t16", "f32"), ("greater_u64_t32", "u64"), ("bit_and_u32_t32", "u32"),
               ("bit_or_u32_t16", "u32"), ("bit_xor_u32_t32", "u32"), ("bit_xor_i64_t8", "i64"),
               ("lambda_mul_i32_t32", "i32")]
    for name, ty in kernels:
        copy_kernel(f, f"cg_reduce_{name}", 2, 128, 2 * 128 * SIZE[ty], 2 * 128 * SIZE[ty],
                    "2 blocks of 128 threads; every thread writes its tile's reduction")
    scans = [("inclusive_scan_plus_i32_t32", "i32"), ("inclusive_scan_plus_f32_t16", "f32"),
             ("inclusive_scan_greater_i32_t8", "i32"), ("inclusive_scan_plus_f64_t32", "f64"),
             ("exclusive_scan_plus_i32_t32", "i32"), ("exclusive_scan_plus_u64_t16", "u64"),
             ("exclusive_scan_bit_or_u32_t32", "u32"), ("exclusive_scan_less_i32_t4", "i32")]
    for name, ty in scans:
        copy_kernel(f, f"cg_{name}", 2, 128, 2 * 128 * SIZE[ty], 2 * 128 * SIZE[ty],
                    "2 blocks of 128 threads; every element scanned within its tile")
    k = "cg_reduce_update_async_sum_i32"
    spec(f, k, [2], [128], [rand(2 * 128 * 4, f"{f}.{k}"), zero(2 * 4)],
         "2 blocks of 128 threads; one atomic add per warp into its block's total (integer sums: order-independent)")
    k = "cg_reduce_store_async_max_u32"
    spec(f, k, [2], [128], [rand(2 * 128 * 4, f"{f}.{k}"), zero(2 * 128 // 16 * 4)],
         "2 blocks of 128 threads in tiles of 16; one stored maximum per tile")
    spec(f, "cg_invoke_one_broadcast_claim", [2], [128], [zero(4), zero(2 * 128 * 4)],
         "2 blocks of 128 threads; ORDER-DEPENDENT: which warp claims which 32-slot range depends on atomic order "
         "(the counter ends at 256 regardless)")
    spec(f, "cg_invoke_one_count_tiles", [2], [128], [zero(4)],
         "2 blocks of 128 threads in tiles of 8; the counter ends at 32")


def cg_partitions():
    f = "cg_partitions"
    kernels = [("cg_coalesced_rank_positive", "i32", "i32"), ("cg_coalesced_reduce_even_i32", "i32", "i32"),
               ("cg_coalesced_scan_odd_u32", "u32", "u32"), ("cg_labeled_partition_sum_i32", "i32", "i32"),
               ("cg_labeled_partition_ranks_t16", "u32", "u32"), ("cg_binary_partition_max_f32", "f32", "f32"),
               ("cg_binary_partition_ballot_t8", "i32", "u32"), ("cg_nested_partition_exclusive_scan", "i32", "i32")]
    for k, tin, tout in kernels:
        copy_kernel(f, k, 2, 128, 2 * 128 * SIZE[tin], 2 * 128 * SIZE[tout],
                    "2 blocks of 128 threads; groups formed from random input bits; one result per thread")
    k = "cg_coalesced_aggregated_increment"
    spec(f, k, [2], [128], [rand(2 * 128 * 4, f"{f}.{k}"), zero(4), zero(2 * 128 * 4)],
         "2 blocks of 128 threads; ORDER-DEPENDENT: the slots each warp gets depend on atomic order (the counter "
         "ends at the number of odd inputs regardless)")


# ---- cuRAND -----------------------------------------------------------------

STATE_BYTES = {"xorwow": 48, "philox": 64, "mrg32k3a": 48}
F32_ZERO, F32_HALF = 0x00000000, 0x3F000000
F64_ZERO, F64_QUARTER, F64_FOUR = 0x0000000000000000, 0x3FD0000000000000, 0x4010000000000000
SEED = 0x0123456789ABCDEF
THREADS = 64
PER_THREAD = 4


def curand_file(gen):
    f = f"curand_{gen}"
    g = gen
    launch = f"1 block of {THREADS} threads (subsequence = thread index)"
    spec(f, f"{g}_init_states", [1], [THREADS], [zero(THREADS * STATE_BYTES[g]), u64(SEED), u64(0)],
         f"{launch}; one {STATE_BYTES[g]}-byte state per thread, offset 0")
    draws = [("bits", 4, 1), ("uniform", 4, 1), ("uniform_double", 8, 1), ("normal", 4, 1),
             ("normal_double", 8, 1), ("normal2", 4, 2), ("normal2_double", 8, 2),
             ("seed_per_thread_uniform", 4, 1)]
    for name, size, count in draws:
        spec(f, f"{g}_{name}", [1], [THREADS], [zero(THREADS * PER_THREAD * count * size), u64(SEED), s32(PER_THREAD)],
             f"{launch}; {PER_THREAD} draws per thread")
    spec(f, f"{g}_log_normal", [1], [THREADS],
         [zero(THREADS * PER_THREAD * 4), u64(SEED), s32(PER_THREAD), f32(F32_ZERO), f32(F32_HALF)],
         f"{launch}; {PER_THREAD} draws per thread, mean 0, stddev 0.5")
    spec(f, f"{g}_log_normal_double", [1], [THREADS],
         [zero(THREADS * PER_THREAD * 8), u64(SEED), s32(PER_THREAD), f64(F64_ZERO), f64(F64_QUARTER)],
         f"{launch}; {PER_THREAD} draws per thread, mean 0, stddev 0.25")
    spec(f, f"{g}_poisson", [1], [THREADS], [zero(THREADS * PER_THREAD * 4), u64(SEED), s32(PER_THREAD), f64(F64_FOUR)],
         f"{launch}; {PER_THREAD} draws per thread, lambda 4")
    spec(f, f"{g}_skipahead_uniform", [1], [THREADS],
         [zero(THREADS * PER_THREAD * 4), u64(SEED), u64(1000), u64(3), s32(PER_THREAD)],
         f"{launch}; skip 1000 draws and 3 subsequences, then {PER_THREAD} draws per thread")
    k = f"{g}_normal_from_states"
    spec(f, k, [1], [THREADS], [rand_out(THREADS * STATE_BYTES[g], f"{f}.{k}"), zero(THREADS * PER_THREAD * 4),
                                s32(PER_THREAD)],
         f"1 block of {THREADS} threads; the states are random bytes (any bits are a state the generator can "
         f"advance), {PER_THREAD} draws per thread, states written back")
    if gen == "philox":
        for name, size in (("bits4", 16), ("uniform4", 16), ("normal4", 16), ("uniform2_double", 16)):
            spec(f, f"{g}_{name}", [1], [THREADS], [zero(THREADS * PER_THREAD * size), u64(SEED), s32(PER_THREAD)],
                 f"{launch}; {PER_THREAD} vector draws per thread")
        spec(f, f"{g}_log_normal4", [1], [THREADS],
             [zero(THREADS * PER_THREAD * 16), u64(SEED), s32(PER_THREAD), f32(F32_ZERO), f32(F32_HALF)],
             f"{launch}; {PER_THREAD} vector draws per thread, mean 0, stddev 0.5")
        spec(f, f"{g}_poisson4", [1], [THREADS],
             [zero(THREADS * PER_THREAD * 16), u64(SEED), s32(PER_THREAD), f64(F64_FOUR)],
             f"{launch}; {PER_THREAD} vector draws per thread, lambda 4")


# ---- Thrust: device-wide transforms through bulk copies (sm_90+) -----------

def thrust_transform():
    """`thrust::transform(a, b, out, plus<int>)`: cub's transform kernel,
    which on sm_90+ copies its inputs into shared memory with cp.async.bulk
    and waits on an mbarrier. 868 items in four CTAs: the second takes the
    full-tile path, the others the general one, the last tile partial.
    Inputs 16-byte aligned (kernel_arg offsets 0)."""
    f = "thrust_transform"
    items = 868
    # sm_90: 256 threads x 1 item per tile unit; sm_100/120: 128 x 2.
    for sm, threads, unit in ((90, 256, 1), (100, 128, 2), (120, 128, 2)):
        kernel = ptx_kernel(f, sm, r"transform_kernel.*tupleIJPKiSA_EEEPiEElNS5_3__411always_trueENS7_4plusIiEE")
        if kernel is None:
            continue
        name = f"{f}.plus_i32_sm{sm}"
        arg = lambda k: dict(rand(items * 4, name, k), tail="0000000000000000")
        params = [u64(items), {"kind": "u32", "value": f"0x{unit:08x}"}, {"kind": "u8", "value": "0x0"},
                  {"kind": "bytes", "hex": "00", "align": 1}, {"kind": "bytes", "hex": "00", "align": 1},
                  zero(items * 4), arg(0), arg(1)]
        mangled_spec(f, "plus_i32", sm, kernel, [4, 1, 1], [threads, 1, 1], 4096, params,
                     f"plus<int> of two int arrays, {items} items in tiles of {threads * unit} through bulk copies and an mbarrier")


def render(s):
    head = {k: s[k] for k in ("kernel", "sm", "grid", "block", "shared_bytes", "note") if k in s}
    text = json.dumps(head)[:-1] + ', "params": [\n'
    text += ",\n".join("  " + json.dumps(p) for p in s["params"])
    return text + "\n]}\n"


def load_checker():
    sys.dont_write_bytecode = True  # no __pycache__ in scripts/
    path = os.path.join(ROOT, "scripts", "check-launch-specs.py")
    module_spec = importlib.util.spec_from_file_location("check_launch_specs", path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module


def check(paths):
    """Checks the specs against the sm_90 PTX; returns the problems."""
    checker = load_checker()
    problems = []
    kernels = {}
    sm_of = {p: SPECS[os.path.basename(p)[:-5]].get("sm", 90) for p in paths}
    for stem, sm in sorted({(os.path.basename(p).split(".")[0], sm_of[p]) for p in paths}):
        ptx = os.path.join(os.path.dirname(PTX_DIR), f"sm_{sm}", stem + ".ptx")
        if not os.path.exists(ptx):
            problems.append(f"{stem}: no {os.path.relpath(ptx, ROOT)}")
            continue
        with open(ptx) as fh:
            for name, params in checker.entry_params(fh.read()).items():
                kernels[(stem, name)] = params
    for path in paths:
        stem = os.path.basename(path).split(".")[0]
        kernel = SPECS[os.path.basename(path)[:-5]]["kernel"]
        if (stem, kernel) not in kernels:
            problems.append(f"{os.path.basename(path)}: no kernel {kernel} in {stem}.ptx")
            continue
        problems += [f"{os.path.basename(path)}: {p}" for p in checker.check_spec(path, kernel, kernels[(stem, kernel)])]
    for (stem, name) in sorted(kernels):
        if not re.match(r"_Z", name) and f"{stem}.{name}" not in SPECS:
            problems.append(f"{stem}.{name}: extern \"C\" kernel without a spec")
    return problems


def main():
    for make in (cub_block_reduce, cub_block_scan, cub_block_radix_sort, cub_block_histogram, cub_block_load_store,
                 cub_warp_reduce, cub_warp_scan, cub_warp_exchange_sort, cg_tiles, cg_reduce_scan, cg_partitions):
        make()
    thrust_transform()
    for gen in ("xorwow", "philox", "mrg32k3a"):
        curand_file(gen)
    for old in os.listdir(HERE):
        if old.endswith(".json") and old[:-5] not in SPECS:
            os.remove(os.path.join(HERE, old))
    paths = []
    for key in sorted(SPECS):
        path = os.path.join(HERE, key + ".json")
        with open(path, "w") as fh:
            fh.write(render(SPECS[key]))
        paths.append(path)
    print(f"generate: {len(paths)} specs in {os.path.relpath(HERE, ROOT)}")
    if not os.path.isdir(PTX_DIR):
        print(f"generate: {os.path.relpath(PTX_DIR, ROOT)} not built; specs not checked against the PTX")
        return 0
    problems = check(paths)
    for p in problems:
        print(p)
    print(f"generate: checked against {os.path.relpath(PTX_DIR, ROOT)}: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
