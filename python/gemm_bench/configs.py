"""The SM90 kernel configurations the compiler accepts, and the sets of them
that tuning and the benchmark suite compile.

    python -m gemm_bench.configs --out FILE.mlir [--set tune|space|best|heuristic]
        [--cache bench/tuning/sm90-h200.json] [--shapes-dir DIR]

A configuration is one `#gemm.config` of an sm_90a `gemm.matmul` with A row,
B col and C row in the same 16-bit type (bf16 or f16) and f32 accumulation.
Its name says everything, e.g. `sm90_bf16_128x256x64_coop_c2x1_rm_s8_st0`:
tile BMxBNxBK, schedule (coop = cooperative, pingpong), cluster (CTAs along
M x along N), raster (rm = along_m, rn = along_n), swizzle (tiles per panel),
stages (st0 = derived from the shared-memory budget), and with split-K a
suffix _k<S> (S k-ranges per tile, `scheduler = split_k, splits = S`) or
with stream-K the suffix _sk (`scheduler = stream_k`).

What the compiler accepts (MatmulOp::verify, ConfigAttr::verify, planKernel
in MaterializeSM90.cpp), mirrored by `problems()`:
- BK spans 128 bytes: 64 for 16-bit inputs.
- BM a multiple of the 64-row WGMMA atom, at most 256; BN a multiple of 8 in
  [8, 256] and of the 64-column (128-byte) epilogue sub-tile: 64, 128, 192,
  256.
- cooperative splits BM between two consumer warpgroups, each needing a
  multiple of 64 rows: BM = 128 or 256. pingpong gives each consumer whole
  tiles: BM = 64 or 128.
- accumulator registers per consumer thread, (rows / 64) * BN / 2, at most
  128: rules out 256x256 cooperative and 128x256 (or 128x192) pingpong.
- cluster of at most 8 CTAs; BN splits into cluster-M multicast slices and
  BM into cluster-N slices of whole 8-row atoms.
- stages 0 (derived: the deepest ring that fits 227 KB less the epilogue's
  staging buffers) or 2 up to that depth.
- swizzle >= 1; raster along_m or along_n.
- split-K: splits in [1, 16] (1: no split-K); stream-K: no splits. Either
  kernel takes two workspaces, which gemm-runner allocates.
"""
import argparse
import dataclasses
import re
import sys

ARCH = "sm_90a"
ELEMENT_BYTES = {"bf16": 2, "f16": 2}
# Shared memory of one block (SmemPlanOp::kMaxBytes), the reserve for
# barriers, and the epilogue's staging: 2 slots x 2 consumers x 64 x 128 B.
SMEM_BYTES = 232448
BARRIER_RESERVE_BYTES = 1024
STAGING_BYTES = 2 * 2 * 64 * 128
ACCUMULATOR_REGISTER_LIMIT = 128
MAX_CLUSTER_CTAS = 8

SCHEDULES = {"cooperative": "coop", "pingpong": "pingpong"}
RASTERS = {"along_m": "rm", "along_n": "rn"}

# Every (BM, BN, schedule) that the rules above allow for 16-bit types; each
# is compiled (and assembled by ptxas without spills) by test/Python.
TILES = (
    (128, 256, "cooperative"), (256, 128, "cooperative"),
    (128, 192, "cooperative"), (128, 128, "cooperative"),
    (128, 64, "cooperative"), (256, 64, "cooperative"),
    (128, 128, "pingpong"), (128, 64, "pingpong"),
    (64, 256, "pingpong"), (64, 192, "pingpong"),
    (64, 128, "pingpong"), (64, 64, "pingpong"),
)
# Cluster shapes run on the H200 so far (bench/results); larger ones compile
# but have not been checked on a GPU.
CLUSTERS = ((1, 1), (2, 1), (1, 2))
SWIZZLES = (1, 4, 8, 16)
DEFAULT_RASTER, DEFAULT_SWIZZLE = "along_m", 8


@dataclasses.dataclass(frozen=True)
class Config:
    tile_m: int
    tile_n: int
    schedule: str = "cooperative"
    cluster_m: int = 1
    cluster_n: int = 1
    raster: str = DEFAULT_RASTER
    swizzle: int = DEFAULT_SWIZZLE
    stages: int = 0
    tile_k: int = 64
    dtype: str = "bf16"
    splits: int = 1
    stream_k: bool = False

    @property
    def key(self):
        """The name without arch and type: one key for a bf16 and an f16 twin."""
        return (f"{self.tile_m}x{self.tile_n}x{self.tile_k}_{SCHEDULES[self.schedule]}"
                f"_c{self.cluster_m}x{self.cluster_n}_{RASTERS[self.raster]}"
                f"_s{self.swizzle}_st{self.stages}"
                + (f"_k{self.splits}" if self.splits > 1 else "")
                + ("_sk" if self.stream_k else ""))

    @property
    def name(self):
        return f"sm90_{self.dtype}_{self.key}"

    def replace(self, **changes):
        return dataclasses.replace(self, **changes)

    def derived_stages(self):
        """Ring depth planKernel derives for stages = 0."""
        stage = (self.tile_m + self.tile_n) * self.tile_k * ELEMENT_BYTES[self.dtype]
        return (SMEM_BYTES - STAGING_BYTES - BARRIER_RESERVE_BYTES) // stage

    def ring_stages(self):
        return self.stages or self.derived_stages()

    def problems(self):
        """Why the compiler would reject this configuration ([] = accepted)."""
        out = []
        if self.dtype not in ELEMENT_BYTES:
            return [f"input type {self.dtype}: sm_90a kernels take bf16 or f16"]
        if self.tile_k * ELEMENT_BYTES[self.dtype] != 128:
            out.append("BK must span 128 bytes (64 for 16-bit types)")
        if self.tile_m % 64 or not 64 <= self.tile_m <= 256:
            out.append("BM must be 64, 128, 192 or 256")
        if self.tile_n % 64 or not 64 <= self.tile_n <= 256:
            out.append("BN must be a multiple of the 64-column epilogue sub-tile, at most 256")
        if self.schedule not in SCHEDULES:
            out.append(f"unknown schedule {self.schedule}")
        elif self.schedule == "cooperative":
            if self.tile_m < 128 or (self.tile_m // 2) % 64:
                out.append("cooperative needs BM = 128 or 256 (64 rows per consumer)")
        elif self.tile_m > 128:
            out.append("pingpong needs BM = 64 or 128")
        rows = self.tile_m // 2 if self.schedule == "cooperative" else self.tile_m
        if rows // 64 * self.tile_n // 2 > ACCUMULATOR_REGISTER_LIMIT:
            out.append("accumulators exceed 128 registers per consumer thread")
        if self.cluster_m < 1 or self.cluster_n < 1 or \
                self.cluster_m * self.cluster_n > MAX_CLUSTER_CTAS:
            out.append("cluster must have 1 to 8 CTAs")
        elif self.tile_n % (8 * self.cluster_m) or self.tile_m % (8 * self.cluster_n):
            out.append("tile cannot be split into multicast slices of 8-row atoms")
        if self.raster not in RASTERS:
            out.append(f"unknown raster {self.raster}")
        if self.swizzle < 1:
            out.append("swizzle must be at least 1")
        if self.stages == 1 or self.stages < 0 or \
                (self.stages and self.stages > self.derived_stages()):
            out.append(f"stages must be 0 or 2..{self.derived_stages()}")
        if not 1 <= self.splits <= 16:
            out.append("splits must be in [1, 16]")
        if self.stream_k and self.splits > 1:
            out.append("stream-K takes no splits (it is its own scheduler)")
        return out

    def mlir(self):
        params = [f"arch = {ARCH}", f"tile = [{self.tile_m}, {self.tile_n}, {self.tile_k}]"]
        params.append(f"cluster = [{self.cluster_m}, {self.cluster_n}]")
        params.append(f"stages = {self.stages}")
        params.append(f"schedule = {self.schedule}")
        params.append(f"raster = {self.raster}, swizzle = {self.swizzle}")
        if self.splits > 1:
            params.append(f"scheduler = split_k, splits = {self.splits}")
        if self.stream_k:
            params.append("scheduler = stream_k")
        t = self.dtype
        return (f"gemm.matmul @{self.name} a({t}, row) b({t}, col) c({t}, row) acc(f32)\n"
                f"    config(#gemm.config<{', '.join(params)}>)\n")

    def as_dict(self):
        return dataclasses.asdict(self)


_NAME = re.compile(r"^(?:sm90_(?P<dtype>[a-z0-9]+)_)?(?P<bm>\d+)x(?P<bn>\d+)x(?P<bk>\d+)"
                   r"_(?P<sched>coop|pingpong)_c(?P<cm>\d+)x(?P<cn>\d+)_(?P<raster>rm|rn)"
                   r"_s(?P<swizzle>\d+)_st(?P<stages>\d+)(?:_k(?P<splits>\d+)|(?P<sk>_sk))?$")


def parse_name(name, dtype="bf16"):
    """The Config of a bundle name or key (inverse of Config.name/.key)."""
    match = _NAME.match(name)
    if not match:
        raise ValueError(f"not a configuration name: {name}")
    g = match.groupdict()
    schedule = {v: k for k, v in SCHEDULES.items()}[g["sched"]]
    raster = {v: k for k, v in RASTERS.items()}[g["raster"]]
    return Config(int(g["bm"]), int(g["bn"]), schedule, int(g["cm"]), int(g["cn"]),
                  raster, int(g["swizzle"]), int(g["stages"]), int(g["bk"]),
                  g["dtype"] or dtype, int(g["splits"] or 1), bool(g["sk"]))


def from_dict(d):
    return Config(**d)


# ---------------------------------------------------------------------------
# The tuning search space, pruned per shape class.
#
# Stage 1 varies tile, schedule and cluster at the default order (along_m,
# swizzle 8) and the derived ring depth. Pruning, by the class's M bucket:
# - M <= 64: one 64-row tile covers M, so only pingpong 64-row tiles (a
#   128-row tile would compute at least half padding rows, and cooperative
#   needs 128 rows). A cluster along M would give its second CTA no rows;
#   a cluster along N (sharing the A tile) is kept.
# - M <= 128 and M <= 256: 64- and 128-row tiles, and 256x128 for M <= 256;
#   a cluster along M (two M tiles share the B tile, the dominant traffic)
#   where there are at least two M tiles; no 1x2 (A is small).
# - larger M: the large, compute-efficient tiles (128x256, 256x128, 128x192
#   and 128x128 cooperative, 128x128 and 64x256 pingpong) in each cluster.
# Stage 2 probes the ring depth: the stage-1 winner at half its derived
# depth (if the deepest ring is not the best, this shows it).
# Stage 3 varies the tile order (raster x swizzle) of the winner, only for
# M > 256, where both dimensions have several tiles; with one or two rows
# of tiles the order does not change which tiles share a wave.
# ---------------------------------------------------------------------------

_SMALL_M_TILES = ((64, 64, "pingpong"), (64, 128, "pingpong"), (64, 256, "pingpong"))
_LARGE_TILES = ((128, 256, "cooperative"), (256, 128, "cooperative"),
                (128, 192, "cooperative"), (128, 128, "cooperative"),
                (128, 128, "pingpong"), (64, 256, "pingpong"))


def stage1_candidates(class_key, dtype="bf16"):
    """Tile x schedule x cluster candidates of a shape class (see above)."""
    from gemm_bench.shapes import class_bounds
    m_high = class_bounds(class_key)["m"][1]
    out = []

    def add(tiles, clusters):
        for bm, bn, schedule in tiles:
            for cm, cn in clusters:
                config = Config(bm, bn, schedule, cm, cn, dtype=dtype)
                # A cluster along M needs at least two tiles along M.
                if cm > 1 and m_high is not None and m_high <= bm:
                    continue
                if config not in out:
                    out.append(config)

    if m_high is not None and m_high <= 64:
        add(_SMALL_M_TILES, ((1, 1), (1, 2)))
    elif m_high is not None and m_high <= 256:
        tiles = _SMALL_M_TILES + ((128, 64, "cooperative"), (128, 128, "cooperative"),
                                  (128, 256, "cooperative"), (128, 128, "pingpong"))
        if m_high > 128:
            tiles += ((256, 128, "cooperative"),)
        add(tiles, ((1, 1), (2, 1)))
    else:
        add(_LARGE_TILES, CLUSTERS)
    # Split-K where tiles are few (small M: one serial WGMMA chain per CTA
    # over all of K) or waves ragged (mid M): the 64-row tiles in 2 and 4
    # k-ranges for M <= 256, the two best mid-M tiles in 2 for M <= 1024.
    if m_high is not None and m_high <= 256:
        for bm, bn, schedule in _SMALL_M_TILES[:2]:
            for splits in (2, 4):
                out.append(Config(bm, bn, schedule, splits=splits, dtype=dtype))
    elif m_high is not None and m_high <= 1024:
        for bm, bn, schedule in ((128, 256, "cooperative"), (128, 128, "pingpong")):
            out.append(Config(bm, bn, schedule, splits=2, dtype=dtype))
    # Stream-K twins of the whole-tile candidates: the same tile without the
    # idle SMs of a ragged last wave, for the cost of its partial tiles.
    out += [stream_k_twin(c) for c in out if c.splits == 1]
    return out


def stream_k_twin(config):
    return config.replace(stream_k=True)


def depth_probe(config):
    """The ring-depth alternative of stage 2: half the derived depth."""
    return config.replace(stages=max(2, config.derived_stages() // 2))


def searches_order(class_key):
    from gemm_bench.shapes import class_bounds
    m_high = class_bounds(class_key)["m"][1]
    return m_high is None or m_high > 256


def order_variants(config):
    """Stage 3: every raster x swizzle of `config` but its own."""
    return [config.replace(raster=r, swizzle=s) for r in RASTERS for s in SWIZZLES
            if (r, s) != (config.raster, config.swizzle)]


def tuning_set(shapes_dir=None):
    """Every configuration the staged search may run, bf16; the f16 twins of
    the stage-1 candidates of classes that hold squares; and the heuristic's
    pick for every sweep shape. So the suite can run right after tuning, from
    the same bundles: an f16 square gets its class winner's twin at the
    default order and depth if the exact twin is not there."""
    from gemm_bench import heuristic
    from gemm_bench.shapes import (tuning_shapes, read_shapes, group_path, shape_class,
                                   sweep)
    out = []

    def add(config):
        if config not in out:
            out.append(config)

    square_classes = {shape_class(*s) for s in read_shapes(group_path("squares", shapes_dir))}
    for key, shapes in tuning_shapes(shapes_dir).items():
        first = stage1_candidates(key) + [heuristic.pick(*s) for s in shapes]
        for config in first:
            add(config)
            probe = depth_probe(config)
            add(probe)
            if searches_order(key):
                for depth in (config, probe):
                    for variant in order_variants(depth):
                        add(variant)
        if key in square_classes:
            for config in first:
                add(config.replace(dtype="f16"))
    # The suite's last resort for any sweep shape is the heuristic's pick.
    for _, dtype, shape in sweep(shapes_dir):
        add(heuristic.pick(*shape, dtype=dtype))
    return out


def space(dtypes=("bf16",)):
    """The whole space: TILES x CLUSTERS x raster x swizzle, derived depth."""
    return [Config(bm, bn, schedule, cm, cn, raster, swizzle, dtype=dtype)
            for dtype in dtypes for bm, bn, schedule in TILES for cm, cn in CLUSTERS
            for raster in RASTERS for swizzle in SWIZZLES]


def write_mlir(configs, path, header=""):
    """Writes one gemm.matmul per configuration; refuses illegal ones."""
    bad = [(c.name, c.problems()) for c in configs if c.problems()]
    if bad:
        raise ValueError("; ".join(f"{name}: {', '.join(p)}" for name, p in bad))
    names = [c.name for c in configs]
    if len(set(names)) != len(names):
        raise ValueError("duplicate configuration names")
    with open(path, "w") as f:
        f.write("// Generated by python -m gemm_bench.configs" + (f" ({header})" if header else "")
                + f"; {len(configs)} kernels.\n")
        f.write('// Compile: python -m gemm_bench.compile THIS_FILE --out DIR\n\n')
        for config in configs:
            f.write(config.mlir())


def main(argv=None):
    parser = argparse.ArgumentParser(description="Write gemm.matmul variants of the "
                                     "SM90 configuration space to a .mlir file.")
    parser.add_argument("--out", required=True, help="the .mlir file to write")
    parser.add_argument("--set", default="tune",
                        choices=("tune", "space", "best", "heuristic"),
                        help="tune: the candidates of the staged search (default); "
                        "space: every tile x cluster x order; best: the configs the "
                        "suite runs (the dispatcher's choices: tuning cache, else its model); "
                        "heuristic: the heuristic's picks for the sweep")
    parser.add_argument("--cache", help="tuning cache for --set best "
                        "(default bench/tuning/sm90-h200.json if it exists)")
    parser.add_argument("--shapes-dir", help="default: bench/shapes")
    parser.add_argument("--groups", help="comma-separated shape groups for --set best and "
                        "heuristic (default: the sweep; see gemm_bench.suite)")
    args = parser.parse_args(argv)

    if args.set == "tune":
        configs = tuning_set(args.shapes_dir)
    elif args.set == "space":
        configs = space(("bf16", "f16"))
    else:
        from gemm_bench import suite
        cache = suite.load_cache(args.cache, required=args.set == "best" and args.cache)
        if args.set == "heuristic":
            cache = None
        elif cache is None:
            print("configs: no tuning cache; every shape gets the model's pick",
                  file=sys.stderr)
        from gemm_bench.shapes import SHAPE_GROUPS
        groups = suite.parse_groups(args.groups) if args.groups else SHAPE_GROUPS
        configs = []
        for selection in suite.select_all(cache, args.shapes_dir, groups=groups):
            if selection["config"] not in configs:
                configs.append(selection["config"])
    write_mlir(configs, args.out, header=f"--set {args.set}")
    print(f"{args.out}: {len(configs)} kernels (--set {args.set})")


if __name__ == "__main__":
    # Run the imported module's main, so that Config is one class for this
    # module and for the modules it imports (heuristic, suite).
    from gemm_bench.configs import main as package_main
    sys.exit(package_main())
