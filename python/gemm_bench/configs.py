"""The SM90 kernel configurations the compiler accepts, and the sets of them
that the benchmark suite compiles (the fit's candidates are gemm_bench.fit's).

    python -m gemm_bench.configs --out FILE.mlir [--set best|space]
        [--model bench/tuning/sm90-h200-model.json] [--groups G,...] [--shapes-dir DIR]

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
- BM a multiple of the 64-row WGMMA atom, at most 256; BN any multiple of 8
  in [8, 256] (the last 64-column epilogue sub-tile narrower), except with
  an N-major B (b(row): loaded in 64-column blocks, BN 64, 128, 192 or
  256).
- layouts: the token of the name (default akbkcr, left out of it): A
  K-major (ak) or M-major (am), B K-major (bk) or N-major (bn), C row-major
  (cr) or column-major (cc).
- cooperative splits BM between consumer warpgroups, each needing a
  multiple of 64 rows: BM = 128 or 256 (two consumers), 192 (three, of 64
  rows each). pingpong gives each consumer whole tiles: BM = 64 or 128.
- accumulator registers per consumer thread, (rows / 64) * BN / 2, at most
  128 (96 with three consumers, whose setmaxnreg budget is 152): rules out
  256x256 cooperative, 192x208 and wider, and 128x256 (or 128x192)
  pingpong.
- cluster of at most 8 CTAs; BN splits into cluster-M multicast slices and
  BM into cluster-N slices of whole 8-row atoms.
- stages 0 (derived: the deepest ring that fits 227 KB less the epilogue's
  staging buffers) or 2 up to that depth.
- swizzle >= 1; raster along_m or along_n.
- split-K: splits in [1, 16] (1: no split-K); stream-K: no splits. Either
  kernel takes two workspaces, which gemm-runner allocates.
- direct (`schedule = direct`, the kernel that reads A and B and writes C
  with plain loads and stores at any alignment, one CTA per tile;
  planDirectKernel in MaterializeSM90Direct.cpp): BM 64 or 128 (one
  warpgroup per 64 rows), BN a multiple of 8 in [8, 256], the accumulator
  (BN / 2) and one k-block of A and B ((BM + BN) * 64 / (2 BM)) at most 144
  registers per thread, no cluster, split-K or stream-K, stages 0 or 2.
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
# Two TMA-store staging slots of 64 rows x 128 bytes per consumer.
STAGING_BYTES_PER_CONSUMER = 2 * 64 * 128
ACCUMULATOR_REGISTER_LIMIT = 128
THREE_CONSUMER_ACCUMULATOR_REGISTER_LIMIT = 96
MAX_CLUSTER_CTAS = 8

SCHEDULES = {"cooperative": "coop", "pingpong": "pingpong", "direct": "direct"}
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
# The direct kernel's tiles (BM, BN) in the space; each compiles without
# spills (test/PTX/sm90-direct.mlir).
DIRECT_TILES = ((64, 32), (64, 64), (128, 32), (128, 64), (128, 128))
DIRECT_REGISTER_LIMIT = 144
# Cluster shapes run on the H200 so far (bench/results); larger ones compile
# but have not been checked on a GPU.
CLUSTERS = ((1, 1), (2, 1), (1, 2))
SWIZZLES = (1, 4, 8, 16)
DEFAULT_RASTER, DEFAULT_SWIZZLE = "along_m", 8
DEFAULT_LAYOUTS = "akbkcr"


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
    layouts: str = DEFAULT_LAYOUTS

    @property
    def c_columns(self):
        return self.layouts.endswith("cc")

    @property
    def key(self):
        """The name without arch and type: one key for a bf16 and an f16 twin
        (with the layout token when not the default)."""
        return ((f"{self.layouts}_" if self.layouts != DEFAULT_LAYOUTS else "") +
                f"{self.tile_m}x{self.tile_n}x{self.tile_k}_{SCHEDULES[self.schedule]}"
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
        """Ring depth planKernel derives for stages = 0 (the direct kernel:
        2)."""
        if self.schedule == "direct":
            return 2
        stage = (self.tile_m + self.tile_n) * self.tile_k * ELEMENT_BYTES[self.dtype]
        staging = STAGING_BYTES_PER_CONSUMER * self.consumers()
        return (SMEM_BYTES - staging - BARRIER_RESERVE_BYTES) // stage

    def consumers(self):
        """Consumer warpgroups: three for 192-row cooperative tiles."""
        return 3 if self.schedule == "cooperative" and self.tile_m == 192 else 2

    def ring_stages(self):
        return self.stages or self.derived_stages()

    def problems(self):
        """Why the compiler would reject this configuration ([] = accepted)."""
        out = []
        if self.dtype not in ELEMENT_BYTES:
            return [f"input type {self.dtype}: sm_90a kernels take bf16 or f16"]
        if self.tile_k * ELEMENT_BYTES[self.dtype] != 128:
            out.append("BK must span 128 bytes (64 for 16-bit types)")
        if self.schedule == "direct":
            return out + self._direct_problems()
        if self.tile_m % 64 or not 64 <= self.tile_m <= 256:
            out.append("BM must be 64, 128, 192 or 256")
        if not re.fullmatch(r"a[km]b[kn]c[rc]", self.layouts):
            out.append(f"unknown layouts {self.layouts} (a[km]b[kn]c[rc])")
        elif self.layouts[3] == "k":
            if self.tile_n % 8 or not 8 <= self.tile_n <= 256:
                out.append("BN must be a multiple of 8 in [8, 256]")
        elif self.tile_n % 64 or not 64 <= self.tile_n <= 256:
            out.append("BN must be a multiple of the 64-column N-major B block, at most 256"
                       " (any multiple of 8 with a K-major B)")
        if self.schedule not in SCHEDULES:
            out.append(f"unknown schedule {self.schedule}")
        elif self.schedule == "cooperative":
            if self.tile_m < 128 or (self.tile_m // self.consumers()) % 64:
                out.append("cooperative needs BM = 128, 192 or 256 (64-row atoms per consumer)")
        elif self.tile_m > 128:
            out.append("pingpong needs BM = 64 or 128")
        rows = self.tile_m // self.consumers() if self.schedule == "cooperative" else self.tile_m
        limit = (THREE_CONSUMER_ACCUMULATOR_REGISTER_LIMIT if self.consumers() == 3
                 else ACCUMULATOR_REGISTER_LIMIT)
        if rows // 64 * self.tile_n // 2 > limit:
            out.append(f"accumulators exceed {limit} registers per consumer thread")
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

    def _direct_problems(self):
        out = []
        if self.tile_m not in (64, 128):
            out.append("direct needs BM = 64 or 128 (one warpgroup per 64 rows)")
        if self.tile_n % 8 or not 8 <= self.tile_n <= 256:
            out.append("BN must be a multiple of 8 in [8, 256] (a WGMMA N)")
        elif self.tile_m in (64, 128):
            threads = 2 * self.tile_m
            registers = self.tile_n // 2 + (self.tile_m + self.tile_n) * self.tile_k // threads
            if registers > DIRECT_REGISTER_LIMIT:
                out.append("direct: accumulator and fragments exceed 144 registers")
        if (self.cluster_m, self.cluster_n) != (1, 1):
            out.append("direct takes no cluster")
        if self.splits > 1 or self.stream_k:
            out.append("direct takes no split-K or stream-K")
        if self.raster not in RASTERS:
            out.append(f"unknown raster {self.raster}")
        if self.swizzle < 1:
            out.append("swizzle must be at least 1")
        if self.stages not in (0, 2):
            out.append("direct stages must be 0 or 2")
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
        a = "row" if self.layouts[1] == "k" else "col"
        b = "col" if self.layouts[3] == "k" else "row"
        c = "row" if self.layouts[5] == "r" else "col"
        return (f"gemm.matmul @{self.name} a({t}, {a}) b({t}, {b}) c({t}, {c}) acc(f32)\n"
                f"    config(#gemm.config<{', '.join(params)}>)\n")

    def as_dict(self):
        return dataclasses.asdict(self)


_NAME = re.compile(r"^(?:sm90_(?P<dtype>[a-z0-9]+)_)?(?:(?P<layouts>a[km]b[kn]c[rc])_)?"
                   r"(?P<bm>\d+)x(?P<bn>\d+)x(?P<bk>\d+)"
                   r"_(?P<sched>coop|pingpong|direct)_c(?P<cm>\d+)x(?P<cn>\d+)_(?P<raster>rm|rn)"
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
                  g["dtype"] or dtype, int(g["splits"] or 1), bool(g["sk"]),
                  g["layouts"] or DEFAULT_LAYOUTS)


def from_dict(d):
    return Config(**d)


def space(dtypes=("bf16",)):
    """The whole space: TILES x CLUSTERS x raster x swizzle, derived depth,
    and the direct tiles in each order."""
    return ([Config(bm, bn, schedule, cm, cn, raster, swizzle, dtype=dtype)
             for dtype in dtypes for bm, bn, schedule in TILES for cm, cn in CLUSTERS
             for raster in RASTERS for swizzle in SWIZZLES] +
            [Config(bm, bn, "direct", raster=raster, swizzle=swizzle, dtype=dtype)
             for dtype in dtypes for bm, bn in DIRECT_TILES for raster in RASTERS
             for swizzle in SWIZZLES])


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
    parser.add_argument("--set", default="best", choices=("best", "space"),
                        help="best: what the suite runs, the dispatcher's choice for every "
                        "shape of the groups (default); space: every tile x cluster x order")
    parser.add_argument("--model", help="the dispatcher's model for --set best "
                        "(default bench/tuning/sm90-h200-model.json)")
    parser.add_argument("--shapes-dir", help="default: bench/shapes")
    parser.add_argument("--groups", help="comma-separated shape groups for --set best "
                        "(default: the sweep; see gemm_bench.suite)")
    args = parser.parse_args(argv)

    if args.set == "space":
        configs = space(("bf16", "f16"))
    else:
        from gemm_bench import suite
        from gemm_bench.shapes import SHAPE_GROUPS
        groups = suite.parse_groups(args.groups) if args.groups else SHAPE_GROUPS
        configs = []
        for selection in suite.select_all(suite.load_model(args.model), args.shapes_dir,
                                          groups=groups):
            if selection["config"] not in configs:
                configs.append(selection["config"])
    write_mlir(configs, args.out, header=f"--set {args.set}")
    print(f"{args.out}: {len(configs)} kernels (--set {args.set})")


if __name__ == "__main__":
    # Run the imported module's main, so that Config is one class for this
    # module and for the modules it imports (suite).
    from gemm_bench.configs import main as package_main
    sys.exit(package_main())
